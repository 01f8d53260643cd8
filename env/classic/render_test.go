package classic_test

import (
	"errors"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gorl/gorl/env/classic"
)

var renderDir = flag.String("classic.render", "", "directory to keep the rendered PNGs in (default: a temporary one)")

// Colours of Gymnasium's scenes.
var (
	white      = color.RGBA{255, 255, 255, 255}
	black      = color.RGBA{0, 0, 0, 255}
	poleColor  = color.RGBA{202, 152, 101, 255}
	axleColor  = color.RGBA{129, 132, 203, 255}
	wheelColor = color.RGBA{128, 128, 128, 255}
	flagColor  = color.RGBA{204, 204, 0, 255}
	rodColor   = color.RGBA{204, 77, 77, 255}
	linkColor  = color.RGBA{0, 204, 204, 255}
	jointColor = color.RGBA{204, 204, 0, 255}
)

// blob returns the number of pixels of colour c in img and their mean column and row.
func blob(img *image.RGBA, c color.RGBA) (n int, x, y float64) {
	b := img.Bounds()
	for j := b.Min.Y; j < b.Max.Y; j++ {
		for i := b.Min.X; i < b.Max.X; i++ {
			if img.RGBAAt(i, j) == c {
				n++
				x += float64(i)
				y += float64(j)
			}
		}
	}
	if n > 0 {
		x /= float64(n)
		y /= float64(n)
	}
	return n, x, y
}

// renderer is what every env offers for rendering and setting its state.
type renderer interface {
	SetState([]float64) error
	Render() *image.RGBA
	RenderTo(*image.RGBA)
}

func mustSet(t *testing.T, e renderer, s ...float64) {
	t.Helper()
	if err := e.SetState(s); err != nil {
		t.Fatal(err)
	}
}

// TestRender checks each scene's size, that it holds each of its parts' colours, and writes it
// as a PNG (kept with -classic.render=DIR) to compare by eye with Gymnasium's.
func TestRender(t *testing.T) {
	pendulum := classic.NewPendulum()
	mustSet(t, pendulum, 0.6, 0)
	if _, _, err := pendulum.Step(1.5); err != nil { // shows the torque arrow
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		env    renderer
		state  []float64
		w, h   int
		colors []color.RGBA // each must cover some pixels
	}{
		{"cartpole", classic.NewCartPole(), []float64{0.5, 0, 0.2, 0}, 600, 400, []color.RGBA{black, poleColor, axleColor}},
		{"mountaincar", classic.NewMountainCar(), []float64{-0.5, 0}, 600, 400, []color.RGBA{black, wheelColor, flagColor}},
		{"mountaincarcontinuous", classic.NewMountainCarContinuous(), []float64{0.2, 0}, 600, 400, []color.RGBA{black, wheelColor, flagColor}},
		{"pendulum", pendulum, nil, 500, 500, []color.RGBA{black, rodColor}},
		{"acrobot", classic.NewAcrobot(), []float64{0.8, 0.9, 0, 0}, 500, 500, []color.RGBA{black, linkColor, jointColor}},
	}
	dir := *renderDir
	if dir == "" {
		dir = t.TempDir()
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.state != nil {
				mustSet(t, tc.env, tc.state...)
			}
			img := tc.env.Render()
			if got := img.Bounds(); got != image.Rect(0, 0, tc.w, tc.h) {
				t.Fatalf("bounds %v, want %dx%d", got, tc.w, tc.h)
			}
			nWhite, _, _ := blob(img, white)
			if nWhite == tc.w*tc.h || nWhite < tc.w*tc.h/2 {
				t.Errorf("%d of %d pixels white: want a white background with something on it", nWhite, tc.w*tc.h)
			}
			for _, c := range tc.colors {
				if n, _, _ := blob(img, c); n < 20 {
					t.Errorf("%d pixels of colour %v, want at least 20", n, c)
				}
			}
			f, err := os.Create(filepath.Join(dir, tc.name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := png.Encode(f, img); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRenderFollowsState moves each scene's parts through the state and checks where their
// pixels go. Expected offsets come from Gymnasium's geometry: CartPole draws 125 pixels per metre
// (600 / (2·2.4)); MountainCar 333.3 per position unit (600 / 1.8).
func TestRenderFollowsState(t *testing.T) {
	t.Run("cartpole", func(t *testing.T) {
		e := classic.NewCartPole()
		mustSet(t, e, 0, 0, 0, 0)
		img := e.Render()
		_, x0, _ := blob(img, axleColor)
		_, poleX0, poleY0 := blob(img, poleColor)
		mustSet(t, e, 1, 0, 0, 0)
		e.RenderTo(img)
		_, x1, _ := blob(img, axleColor)
		if d := x1 - x0; math.Abs(d-125) > 1 {
			t.Errorf("axle moved %.1f pixels right for x 0 → 1, want 125", d)
		}
		if math.Abs(poleX0-x0) > 1 || poleY0 > 400-100-60 {
			t.Errorf("upright pole's centre at (%.1f, %.1f), want above the axle at x %.1f", poleX0, poleY0, x0)
		}
		mustSet(t, e, 0, 0, 0.3, 0) // leaning right
		e.RenderTo(img)
		if _, poleX, _ := blob(img, poleColor); poleX < x0+15 {
			t.Errorf("pole leaning right has its centre at x %.1f, axle at %.1f", poleX, x0)
		}
	})
	mountain := func(t *testing.T, e renderer) {
		mustSet(t, e, -0.5, 0)
		img := e.Render()
		_, x0, y0 := blob(img, wheelColor)
		mustSet(t, e, -0.2, 0)
		e.RenderTo(img)
		_, x1, y1 := blob(img, wheelColor)
		if d := x1 - x0; math.Abs(d-100) > 3 {
			t.Errorf("wheels moved %.1f pixels right for position −0.5 → −0.2, want 100", d)
		}
		if y1 >= y0 { // the car climbs the right slope: rows count downwards
			t.Errorf("wheels at row %.1f then %.1f, want higher up", y0, y1)
		}
	}
	t.Run("mountaincar", func(t *testing.T) { mountain(t, classic.NewMountainCar()) })
	t.Run("mountaincarcontinuous", func(t *testing.T) { mountain(t, classic.NewMountainCarContinuous()) })
	t.Run("pendulum", func(t *testing.T) {
		e := classic.NewPendulum()
		mustSet(t, e, 0, 0) // upright
		img := e.Render()
		if _, x, y := blob(img, rodColor); math.Abs(x-250) > 1 || y > 200 {
			t.Errorf("upright rod's centre at (%.1f, %.1f), want above the pivot (250, 250)", x, y)
		}
		mustSet(t, e, math.Pi/2, 0) // counter-clockwise a quarter turn: pointing left
		e.RenderTo(img)
		if _, x, y := blob(img, rodColor); x > 200 || math.Abs(y-250) > 1 {
			t.Errorf("rod at θ = π/2 has its centre at (%.1f, %.1f), want left of the pivot", x, y)
		}
		// The torque arrow: its arrowhead is on the left for a positive (counter-clockwise)
		// torque and on the right for a negative one.
		nAxle, _, _ := blob(img, black)
		for _, tc := range []struct {
			u    float32
			left bool
		}{{2, true}, {-2, false}} {
			mustSet(t, e, math.Pi/2, 0)
			if _, _, err := e.Step(tc.u); err != nil {
				t.Fatal(err)
			}
			e.RenderTo(img)
			n, x, _ := blob(img, black)
			if n < nAxle+500 || (x < 250) != tc.left {
				t.Errorf("torque %v: %d black pixels centred at column %.1f (axle alone: %d), want an arrow heavier on the left: %v", tc.u, n, x, nAxle, tc.left)
			}
		}
	})
	t.Run("acrobot", func(t *testing.T) {
		e := classic.NewAcrobot()
		mustSet(t, e, 0, 0, 0, 0) // hanging down
		img := e.Render()
		if _, x, y := blob(img, linkColor); math.Abs(x-250) > 1 || y < 300 {
			t.Errorf("hanging links centred at (%.1f, %.1f), want below the pivot (250, 250)", x, y)
		}
		mustSet(t, e, math.Pi/2, 0, 0, 0) // swung out to the right
		e.RenderTo(img)
		if _, x, y := blob(img, linkColor); x < 300 || math.Abs(y-250) > 1 {
			t.Errorf("links at θ₁ = π/2 centred at (%.1f, %.1f), want right of the pivot", x, y)
		}
		mustSet(t, e, math.Pi/2, -math.Pi/2, 0, 0) // first link right, second hanging down from it
		e.RenderTo(img)
		if _, x, y := blob(img, linkColor); x < 300 || y < 260 {
			t.Errorf("links at θ = (π/2, −π/2) centred at (%.1f, %.1f), want right of and below the pivot", x, y)
		}
	})
}

// TestRenderToPanics checks the documented panics: a frame of the wrong size, and rendering an
// env that has no state.
func TestRenderToPanics(t *testing.T) {
	catch := func(f func()) (r any) {
		defer func() { r = recover() }()
		f()
		return nil
	}
	envs := []struct {
		name string
		env  renderer
		w, h int
	}{
		{"cartpole", classic.NewCartPole(), 600, 400},
		{"mountaincar", classic.NewMountainCar(), 600, 400},
		{"mountaincarcontinuous", classic.NewMountainCarContinuous(), 600, 400},
		{"pendulum", classic.NewPendulum(), 500, 500},
		{"acrobot", classic.NewAcrobot(), 500, 500},
	}
	for _, tc := range envs {
		t.Run(tc.name, func(t *testing.T) {
			r := catch(func() { tc.env.Render() })
			if err, ok := r.(error); !ok || !errors.Is(err, classic.ErrNotReset) {
				t.Errorf("Render before SetState panicked with %v, want ErrNotReset", r)
			}
			for _, b := range []image.Rectangle{
				image.Rect(0, 0, tc.w+1, tc.h), image.Rect(0, 0, tc.w, tc.h-1), image.Rect(1, 1, tc.w+1, tc.h+1),
			} {
				r := catch(func() { tc.env.RenderTo(image.NewRGBA(b)) })
				if _, ok := r.(classic.ShapeError); !ok {
					t.Errorf("RenderTo a %v frame panicked with %v, want a ShapeError", b, r)
				}
			}
		})
	}
}
