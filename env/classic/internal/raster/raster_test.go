package raster

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

var (
	bg  = color.RGBA{255, 255, 255, 255}
	ink = color.RGBA{10, 20, 30, 255}
)

func newCanvas(w, h int) (Canvas, *image.RGBA) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	c := New(img)
	c.Fill(bg)
	return c, img
}

// painted reports whether pixel (i, j) of the y-up frame has the ink colour.
func painted(img *image.RGBA, i, j int) bool {
	return img.RGBAAt(i, img.Rect.Dy()-1-j) == ink
}

func count(img *image.RGBA) int {
	n := 0
	for j := 0; j < img.Rect.Dy(); j++ {
		for i := 0; i < img.Rect.Dx(); i++ {
			if painted(img, i, j) {
				n++
			}
		}
	}
	return n
}

func TestFillAndFlip(t *testing.T) {
	c, img := newCanvas(5, 3)
	for j := 0; j < 3; j++ {
		for i := 0; i < 5; i++ {
			if img.RGBAAt(i, j) != bg {
				t.Fatalf("pixel (%d, %d) = %v after Fill", i, j, img.RGBAAt(i, j))
			}
		}
	}
	// The y-up point (1, 0) is the image's bottom row.
	c.Polygon([]Point{{1, 0}, {1.5, 0}, {1.5, 0.5}}, ink)
	if img.RGBAAt(1, 2) != ink || count(img) != 1 {
		t.Errorf("point (1, 0) painted image pixel %v; %d pixels painted", img.RGBAAt(1, 2), count(img))
	}
}

// TestShapes counts painted pixels; expected counts by hand from the sampling rule (a pixel is
// painted when its integer coordinates are inside, edges from the lower end up to but not
// including the upper one).
func TestShapes(t *testing.T) {
	tests := []struct {
		name string
		draw func(Canvas)
		want int
	}{
		{"rectangle 10x4", func(c Canvas) { c.Polygon([]Point{{2, 3}, {2, 7}, {12, 7}, {12, 3}}, ink) }, 11 * 4},
		{"rectangle reversed", func(c Canvas) { c.Polygon([]Point{{12, 3}, {12, 7}, {2, 7}, {2, 3}}, ink) }, 11 * 4},
		{"fractional rectangle", func(c Canvas) { c.Polygon([]Point{{2.5, 3.5}, {2.5, 6.5}, {5.5, 6.5}, {5.5, 3.5}}, ink) }, 3 * 3},
		// Right triangle with legs 4: rows 0..3 hold 5, 4, 3, 2 pixels.
		{"triangle", func(c Canvas) { c.Polygon([]Point{{0, 0}, {4, 0}, {0, 4}}, ink) }, 5 + 4 + 3 + 2},
		{"clipped rectangle", func(c Canvas) { c.Polygon([]Point{{-5, -5}, {-5, 2}, {2, 2}, {2, -5}}, ink) }, 3 * 2},
		{"degenerate", func(c Canvas) { c.Polygon([]Point{{1, 1}, {5, 1}}, ink) }, 0},
		// Disc of radius 2 at an integer centre: the 13 integer points with x²+y² ≤ 4.
		{"disc", func(c Canvas) { c.Disc(10, 10, 2, ink) }, 13},
		{"clipped disc", func(c Canvas) { c.Disc(0, 0, 2, ink) }, 6},
		{"horizontal line", func(c Canvas) { c.Line(Point{2, 5}, Point{9, 5}, ink) }, 8},
		{"diagonal line", func(c Canvas) { c.Line(Point{0, 0}, Point{5, 5}, ink) }, 6},
		{"point line", func(c Canvas) { c.Line(Point{3, 3}, Point{3, 3}, ink) }, 1},
		{"line leaving the frame", func(c Canvas) { c.Line(Point{15, 2}, Point{25, 2}, ink) }, 5},
		// The annulus 1 ≤ ρ ≤ 2 around (10, 10) holds the 12 integer points with 1 ≤ x²+y² ≤ 4:
		// (±1, 0), (±2, 0), (0, ±1), (0, ±2), (±1, ±1). Of those, the angles in [0.1, π+0.1]
		// are the 6 with y > 0 or x < 0 on the axis; in [−0.1, π/2−0.1] the 3 at (1, 0),
		// (2, 0), (1, 1); in [0.1, 3π/2+0.1] all but (1, 0), (2, 0), (1, −1).
		{"half annulus", func(c Canvas) { c.Sector(10, 10, 1, 2, 0.1, math.Pi, ink) }, 6},
		{"quarter annulus", func(c Canvas) { c.Sector(10, 10, 1, 2, -0.1, math.Pi/2, ink) }, 3},
		{"three-quarter annulus", func(c Canvas) { c.Sector(10, 10, 1, 2, 0.1, 1.5*math.Pi, ink) }, 9},
		{"full annulus", func(c Canvas) { c.Sector(10, 10, 1, 2, 0, 2*math.Pi, ink) }, 12},
	}
	for _, tc := range tests {
		c, img := newCanvas(20, 15)
		tc.draw(c)
		if got := count(img); got != tc.want {
			t.Errorf("%s: %d pixels painted, want %d", tc.name, got, tc.want)
		}
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"offset image":  func() { New(image.NewRGBA(image.Rect(1, 0, 5, 5))) },
		"large polygon": func() { c, _ := newCanvas(4, 4); c.Polygon(make([]Point, MaxVertices+1), ink) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// insideNaive is the even-odd point-in-polygon test with Polygon's edge rule, one pixel at a
// time: (x, y) is inside if an odd number of edges cross its row left of it, or one crosses at it.
func insideNaive(pts []Point, x, y float64) bool {
	odd, on := false, false
	a := pts[len(pts)-1]
	for _, b := range pts {
		if (a.Y <= y) != (b.Y <= y) {
			xc := a.X + (y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			if xc < x {
				odd = !odd
			}
			if xc == x {
				on = true
			}
		}
		a = b
	}
	return odd || on
}

// FuzzPolygon checks the scanline fill against the naive per-pixel test on polygons of up to
// eight vertices built from the fuzz input.
func FuzzPolygon(f *testing.F) {
	f.Add([]byte{0, 0, 40, 0, 40, 30, 0, 30})
	f.Add([]byte{10, 0, 30, 20, 10, 40, 0, 20, 25, 25})
	f.Add([]byte{5, 5, 60, 10, 5, 40, 50, 35, 20, 2, 33, 33})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 6 || len(b) > 16 || len(b)%2 != 0 {
			t.Skip()
		}
		pts := make([]Point, len(b)/2)
		for k := range pts {
			// Quarter-pixel steps from −8 to 55.75, so shapes cross the 48×32 frame's edges.
			pts[k] = Point{X: float64(b[2*k])/4 - 8, Y: float64(b[2*k+1])/4 - 8}
		}
		c, img := newCanvas(48, 32)
		c.Polygon(pts, ink)
		for j := 0; j < 32; j++ {
			for i := 0; i < 48; i++ {
				if got, want := painted(img, i, j), insideNaive(pts, float64(i), float64(j)); got != want {
					t.Fatalf("polygon %v: pixel (%d, %d) painted %v, naive test says %v", pts, i, j, got, want)
				}
			}
		}
	})
}

// TestSectorNaive compares Sector with a per-pixel polar-angle test (atan2) on sectors of
// random start and sweep, skipping pixels within 1e-9 rad of the straight edges, where either
// answer is allowed.
func TestSectorNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for k := 0; k < 200; k++ {
		from := (rng.Float64() - 0.5) * 4 * math.Pi
		sweep := rng.Float64() * 2.2 * math.Pi
		cx, cy := 20+rng.Float64()*8, 15+rng.Float64()*8
		c, img := newCanvas(48, 40)
		c.Sector(cx, cy, 4, 14, from, sweep, ink)
		for j := 0; j < 40; j++ {
			for i := 0; i < 48; i++ {
				dx, dy := float64(i)-cx, float64(j)-cy
				d2 := dx*dx + dy*dy
				a := math.Mod(math.Atan2(dy, dx)-from, 2*math.Pi)
				if a < 0 {
					a += 2 * math.Pi
				}
				if sweep < 2*math.Pi && (math.Abs(a) < 1e-9 || math.Abs(a-sweep) < 1e-9 || math.Abs(a-2*math.Pi) < 1e-9) {
					continue
				}
				want := d2 >= 16 && d2 <= 196 && (sweep >= 2*math.Pi || a <= sweep)
				if got := painted(img, i, j); got != want {
					t.Fatalf("sector from %v sweep %v around (%v, %v): pixel (%d, %d) painted %v, want %v", from, sweep, cx, cy, i, j, got, want)
				}
			}
		}
	}
}

// BenchmarkFill clears a 600×400 frame, the largest scene's background; it is most of a scene's
// rendering time.
func BenchmarkFill(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 600, 400))
	c := New(img)
	b.SetBytes(int64(len(img.Pix)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Fill(bg)
	}
}
