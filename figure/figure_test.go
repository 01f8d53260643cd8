package figure

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/gorl/gorl/internal/testrand"
	"github.com/gorl/gorl/scores"
)

// svgCounts parses an SVG document and counts its filled paths whose
// fill is not opaque (the bands) and its stroked paths with a stroke
// width of 1.5 points (the lines).
func svgCounts(t *testing.T, doc []byte) (bands, lines int) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	root := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local == "svg" {
			root = true
		}
		if se.Name.Local != "path" {
			continue
		}
		for _, a := range se.Attr {
			if a.Name.Local != "style" {
				continue
			}
			if strings.Contains(a.Value, "fill-opacity:0.3") {
				bands++
			}
			if strings.Contains(a.Value, "stroke-width:1.5") {
				lines++
			}
		}
	}
	if !root {
		t.Fatal("no <svg> element")
	}
	return bands, lines
}

// pixelsOf counts the pixels of a PNG that have exactly colour c.
func pixelsOf(t *testing.T, doc []byte, c interface{ RGBA() (r, g, b, a uint32) }) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	r0, g0, b0, _ := c.RGBA()
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 == r0>>8 && g>>8 == g0>>8 && b>>8 == b0>>8 {
				n++
			}
		}
	}
	return n
}

func TestGroup(t *testing.T) {
	// Run A is logged at 0, 10, 20, run B at 0 and 15. On the grid
	// {0, 10, 15, 20}, interpolated values: A = 0, 1, 1.5, 2; B = 5,
	// 5 + 10/15, 6, and B has ended at 20. Means: 2.5, (1 + 5 + 2/3)/2,
	// 3.75, then A alone, 2.
	runs := []Curve{
		{X: []float64{0, 10, 20}, Y: []float64{0, 1, 2}},
		{X: []float64{0, 15}, Y: []float64{5, 6}},
	}
	s, err := Group("a", runs, GroupConfig{}, testrand.New(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	wantX, wantY := []float64{0, 10, 15, 20}, []float64{2.5, (6 + 2.0/3) / 2, 3.75, 2}
	if len(s.X) != len(wantX) {
		t.Fatalf("X = %v, want %v", s.X, wantX)
	}
	for i := range wantX {
		if s.X[i] != wantX[i] || !scalar.EqualWithinAbs(s.Y[i], wantY[i], 1e-12) {
			t.Errorf("point %d = (%v, %v), want (%v, %v)", i, s.X[i], s.Y[i], wantX[i], wantY[i])
		}
		if !(s.Lo[i] <= s.Y[i] && s.Y[i] <= s.Hi[i]) {
			t.Errorf("point %d: %v outside its band [%v, %v]", i, s.Y[i], s.Lo[i], s.Hi[i])
		}
	}
	// Two runs at 0: the resampled means are 0, 2.5 or 5, so the 95 %
	// band spans [0, 5]. A alone at 20: the band is its value.
	if s.Lo[0] != 0 || s.Hi[0] != 5 || s.Lo[3] != 2 || s.Hi[3] != 2 {
		t.Errorf("band at 0 [%v, %v], want [0, 5]; at 20 [%v, %v], want [2, 2]", s.Lo[0], s.Hi[0], s.Lo[3], s.Hi[3])
	}

	// One run: its curve, NaN dropped, thinned to MaxPoints, no band.
	x := make([]float64, 1000)
	y := make([]float64, 1000)
	for i := range x {
		x[i], y[i] = float64(i), float64(2*i)
	}
	y[1] = math.NaN()
	one, err := Group("one", []Curve{{X: x, Y: y}}, GroupConfig{MaxPoints: 10}, testrand.New(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	if len(one.X) != 10 || one.Lo != nil || one.X[0] != 0 || one.X[9] != 999 || one.Y[9] != 1998 {
		t.Errorf("one run: %d points from %v to %v, band %v", len(one.X), one.X[0], one.X[len(one.X)-1], one.Lo)
	}

	for _, tc := range []struct {
		name string
		runs []Curve
	}{
		{"no runs", nil},
		{"lengths", []Curve{{X: []float64{1, 2}, Y: []float64{1}}}},
		{"decreasing", []Curve{{X: []float64{2, 1}, Y: []float64{1, 1}}}},
		{"no finite point", []Curve{{X: []float64{1}, Y: []float64{math.NaN()}}}},
	} {
		if _, err := Group("bad", tc.runs, GroupConfig{}, testrand.New(t, 3)); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// testCurves is a figure of three groups, two of them with bands.
func testCurves(t *testing.T) Curves {
	rng := testrand.New(t, 4)
	var series []Series
	for g, name := range []string{"dqn (3 seeds)", "ppo (2 seeds)", "a2c (1 seed)"} {
		var runs []Curve
		for s := 0; s < 3-g; s++ {
			var c Curve
			for i := 0; i <= 20; i++ {
				c.X = append(c.X, float64(1000*i))
				c.Y = append(c.Y, float64(i*(10+5*g))+10*rng.Float64())
			}
			runs = append(runs, c)
		}
		s, err := Group(name, runs, GroupConfig{}, rng)
		if err != nil {
			t.Fatal(err)
		}
		series = append(series, s)
	}
	return Curves{Title: "CartPole-v1", XLabel: "env steps", YLabel: "test return", Series: series}
}

func testIntervals() Intervals {
	iv := func(e, w float64) scores.Interval { return scores.Interval{Estimate: e, Lo: e - w, Hi: e + w} }
	return Intervals{
		Metrics: []string{"Median", "IQM", "Mean", "Optimality gap"},
		Rows:    []string{"dqn", "ppo"},
		Values: [][]scores.Interval{
			{iv(0.8, 0.1), iv(0.9, 0.05)}, {iv(0.7, 0.2), iv(0.95, 0.02)},
			{iv(0.75, 0.1), iv(0.9, 0.05)}, {iv(0.25, 0.1), iv(0.1, 0.05)},
		},
		XLabel: "normalized score",
	}
}

func TestWriteCurves(t *testing.T) {
	fig := testCurves(t)
	var svg, pngDoc bytes.Buffer
	if err := Write(&svg, "svg", fig); err != nil {
		t.Fatal(err)
	}
	// Each series is drawn twice: in the plot and as its legend thumbnail.
	bands, lines := svgCounts(t, svg.Bytes())
	if lines != 2*3 || bands != 2*2 {
		t.Errorf("SVG has %d lines and %d bands, want 2×3 and 2×2 (plot and legend)", lines, bands)
	}
	if err := Write(&pngDoc, "png", fig); err != nil {
		t.Fatal(err)
	}
	for i, s := range fig.Series {
		if n := pixelsOf(t, pngDoc.Bytes(), plotutilColor(i)); n < 50 {
			t.Errorf("PNG: series %q has %d pixels of its colour, want at least 50", s.Name, n)
		}
	}
	writeArtifact(t, "curves.png", pngDoc.Bytes())
}

func TestWriteIntervals(t *testing.T) {
	fig := testIntervals()
	var svg, pngDoc bytes.Buffer
	if err := Write(&svg, "svg", fig); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg.String(), "fill-opacity:0.56"); n != len(fig.Metrics)*len(fig.Rows) {
		t.Errorf("SVG has %d interval bars, want %d", n, len(fig.Metrics)*len(fig.Rows))
	}
	if _, lines := svgCounts(t, svg.Bytes()); lines != 0 {
		t.Errorf("interval figure has %d curve lines", lines)
	}
	if err := Write(&pngDoc, "png", fig); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(pngDoc.Bytes())); err != nil {
		t.Fatal(err)
	}
	writeArtifact(t, "intervals.png", pngDoc.Bytes())
}

// testPoints is a figure of two panels: six rows, eleven finite scores
// (a NaN left out), five marks (a NaN and an empty row among them).
func testPoints() Points {
	return Points{XLabel: "test return", Panels: []PointsPanel{
		{Title: "CartPole-v1", Rows: []string{"dqn", "ppo", "a2c"},
			Values: [][]float64{{500, 480, 20}, {500, 499, math.NaN()}, {300}}, Marks: []float64{475, 475, math.NaN()}},
		{Title: "Pendulum-v1", Rows: []string{"sac", "td3", "none"},
			Values: [][]float64{{-150, -170, -200}, {-160, -900}, nil}, Marks: []float64{-250, -250, -250}},
	}}
}

func TestWritePoints(t *testing.T) {
	fig := testPoints()
	var svg, pngDoc bytes.Buffer
	if err := Write(&svg, "svg", fig); err != nil {
		t.Fatal(err)
	}
	// Every score is a dot (the only shapes drawn with transparency), every
	// mark a red tick.
	if n := strings.Count(svg.String(), "fill-opacity:0.62745"); n != 11 {
		t.Errorf("SVG has %d dots, want 11", n)
	}
	if n := strings.Count(svg.String(), "stroke:#D00000"); n != 5 {
		t.Errorf("SVG has %d marks, want 5", n)
	}
	if err := Write(&pngDoc, "png", fig); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(pngDoc.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if want := int(math.Round(fig.height().Dots(vgimg.DefaultDPI))); img.Bounds().Dy() != want {
		t.Errorf("PNG is %d pixels high, want %d (a band per panel as high as its rows)", img.Bounds().Dy(), want)
	}
	writeArtifact(t, "points.png", pngDoc.Bytes())
}

func TestWriteErrors(t *testing.T) {
	var b bytes.Buffer
	for _, tc := range []struct {
		name, format string
		fig          any
	}{
		{"empty curves", "png", Curves{}},
		{"empty intervals", "svg", Intervals{}},
		{"unknown format", "gif", testIntervals()},
		{"unknown figure", "png", 3},
		{"ragged series", "svg", Curves{Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1}}}}},
		{"ragged band", "svg", Curves{Series: []Series{{Name: "a", X: []float64{1}, Y: []float64{1}, Lo: []float64{}}}}},
		{"ragged intervals", "png", Intervals{Metrics: []string{"IQM"}, Rows: []string{"a"}, Values: [][]scores.Interval{{}}}},
		{"empty points", "png", Points{}},
		{"panel without rows", "svg", Points{Panels: []PointsPanel{{Title: "e"}}}},
		{"ragged points", "svg", Points{Panels: []PointsPanel{{Title: "e", Rows: []string{"a", "b"}, Values: [][]float64{{1}}}}}},
		{"ragged marks", "svg", Points{Panels: []PointsPanel{{Title: "e", Rows: []string{"a"}, Values: [][]float64{{1}}, Marks: []float64{1, 2}}}}},
		{"panel without values", "svg", Points{Panels: []PointsPanel{{Title: "e", Rows: []string{"a"}, Values: [][]float64{nil}}}}},
	} {
		if err := Write(&b, tc.format, tc.fig); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	for path, want := range map[string]string{"a/curve.png": "png", "x.SVG": "svg", "x.jpg": "", "x": ""} {
		got, err := FormatOf(path)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("FormatOf(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
}

// writeArtifact keeps a figure for looking at when GORL_FIGURE_DIR names a
// directory.
func writeArtifact(t *testing.T, name string, b []byte) {
	if dir := os.Getenv("GORL_FIGURE_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

var plotutilColor = plotutil.Color

func TestCompactTicks(t *testing.T) {
	// The labels of gonum's default ticks over each range, shortened.
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 50000, []string{"0", "25k", "50k"}},
		{0, 2e6, []string{"0", "1M", "2M"}},
		{-500, 0, []string{"-500", "-250", "0"}},
		{0, 1, []string{"0", "0.5", "1"}},
	} {
		var got []string
		for _, tk := range (compactTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("ticks of [%v, %v]: %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}
