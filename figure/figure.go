package figure

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gorl/gorl/scores"
)

// FormatOf returns the format of the file path names by its extension:
// "png" for .png and "svg" for .svg (any case), or an error.
func FormatOf(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	}
	return "", fmt.Errorf("figure: %s: unknown format (use a .png or .svg file name)", path)
}

// Curve is one run's values Y at X, X increasing.
type Curve struct {
	X, Y []float64
}

// Series is one line of a Curves figure, with an optional band.
type Series struct {
	// Name is the legend entry.
	Name string
	// X and Y are the points of the line.
	X, Y []float64
	// Lo and Hi, when not nil, bound a band shaded around the line at
	// the same X.
	Lo, Hi []float64
}

// Curves is a figure of learning curves.
type Curves struct {
	Title, XLabel, YLabel string
	Series                []Series
}

// GroupConfig configures Group.
type GroupConfig struct {
	// Aggregate makes the line from the runs' values at a point; nil
	// means scores.Mean.
	Aggregate scores.Aggregate
	// Bootstrap configures the band. A zero Resamples means 1000.
	Bootstrap scores.BootstrapConfig
	// MaxPoints is the most points of the line; 0 means 200.
	MaxPoints int
}

// Group returns the series named name of runs of one group: at each point
// of the grid (see the package's Decisions) the line is cfg.Aggregate of
// the runs that cover it and the band its bootstrap interval, the runs
// forming one stratum. A single run gives its own curve, thinned, without
// a band. It returns an error for no runs, a run without points, X and Y of
// different lengths, an X that decreases or is not finite, or an invalid
// cfg.Bootstrap. Y values that are not finite are dropped first.
func Group(name string, runs []Curve, cfg GroupConfig, rng *rand.Rand) (Series, error) {
	if len(runs) == 0 {
		return Series{}, fmt.Errorf("figure: group %q has no runs", name)
	}
	if cfg.Aggregate == nil {
		cfg.Aggregate = scores.Mean
	}
	if cfg.Bootstrap.Resamples == 0 {
		cfg.Bootstrap.Resamples = 1000
	}
	if cfg.MaxPoints <= 0 {
		cfg.MaxPoints = 200
	}
	clean := make([]Curve, len(runs))
	var grid []float64
	for i, r := range runs {
		if len(r.X) != len(r.Y) {
			return Series{}, fmt.Errorf("figure: group %q, run %d: %d x values and %d y values", name, i, len(r.X), len(r.Y))
		}
		var c Curve
		for j, x := range r.X {
			if math.IsNaN(x) || math.IsInf(x, 0) || (j > 0 && x < r.X[j-1]) {
				return Series{}, fmt.Errorf("figure: group %q, run %d: x value %d (%v) is not finite or decreases", name, i, j, x)
			}
			if y := r.Y[j]; !math.IsNaN(y) && !math.IsInf(y, 0) {
				c.X, c.Y = append(c.X, x), append(c.Y, y)
			}
		}
		if len(c.X) == 0 {
			return Series{}, fmt.Errorf("figure: group %q, run %d has no finite point", name, i)
		}
		clean[i] = c
		grid = append(grid, c.X...)
	}
	slices.Sort(grid)
	grid = thin(slices.Compact(grid), cfg.MaxPoints)
	s := Series{Name: name}
	band := len(clean) > 1
	at := make([]float64, 0, len(clean))
	for _, x := range grid {
		at = at[:0]
		for _, c := range clean {
			if x < c.X[0] || x > c.X[len(c.X)-1] {
				continue
			}
			at = append(at, interpolate(c, x))
		}
		if len(at) == 0 {
			continue
		}
		s.X = append(s.X, x)
		if !band {
			s.Y = append(s.Y, at[0])
			continue
		}
		iv, err := scores.Bootstrap([][]float64{at}, cfg.Aggregate, cfg.Bootstrap, rng)
		if err != nil {
			return Series{}, err
		}
		s.Y, s.Lo, s.Hi = append(s.Y, iv.Estimate), append(s.Lo, iv.Lo), append(s.Hi, iv.Hi)
	}
	return s, nil
}

// interpolate returns c's value at x, c.X[0] ≤ x ≤ c.X[last]: the last
// value logged at x, or the linear interpolation between the points on
// either side.
func interpolate(c Curve, x float64) float64 {
	j, found := slices.BinarySearch(c.X, x)
	if found {
		for j+1 < len(c.X) && c.X[j+1] == x {
			j++
		}
		return c.Y[j]
	}
	x0, x1, y0, y1 := c.X[j-1], c.X[j], c.Y[j-1], c.Y[j]
	return y0 + (x-x0)/(x1-x0)*(y1-y0)
}

// thin returns at most n values of sorted xs, evenly spaced by index, the
// first and last included.
func thin(xs []float64, n int) []float64 {
	if len(xs) <= n {
		return xs
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = xs[i*(len(xs)-1)/(n-1)]
	}
	return out
}

// The size of a figure.
const (
	curvesWidth  = 16 * vg.Centimeter
	curvesHeight = 10 * vg.Centimeter
	panelWidth   = 7 * vg.Centimeter
)

// ErrEmpty is returned by Write for a figure with nothing to draw.
var ErrEmpty = errors.New("figure: nothing to draw")

// Write draws fig, a Curves, an Intervals or a Points, on w in format
// ("png" or "svg", see FormatOf). It returns an error for a figure with no
// series, rows or panels (ErrEmpty), a series whose X, Y, Lo and Hi differ
// in length, a panel whose rows, values and marks differ in number, an
// unknown format, and w's errors.
func Write(w io.Writer, format string, fig any) error {
	var c vg.CanvasWriterTo
	newCanvas := func(width, height vg.Length) (draw.Canvas, error) {
		switch format {
		case "png":
			img := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseBackgroundColor(color.White))
			c = vgimg.PngCanvas{Canvas: img}
		case "svg":
			c = vgsvg.New(width, height)
		default:
			return draw.Canvas{}, fmt.Errorf("figure: unknown format %q (png or svg)", format)
		}
		return draw.New(c), nil
	}
	switch f := fig.(type) {
	case Curves:
		p, err := f.plot()
		if err != nil {
			return err
		}
		dc, err := newCanvas(curvesWidth, curvesHeight)
		if err != nil {
			return err
		}
		p.Draw(dc)
	case Intervals:
		plots, err := f.plots()
		if err != nil {
			return err
		}
		rowsHeight := vg.Length(len(f.Rows)) * 0.9 * vg.Centimeter
		dc, err := newCanvas(vg.Length(len(plots))*panelWidth, rowsHeight+4*vg.Centimeter)
		if err != nil {
			return err
		}
		tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Centimeter / 2, PadTop: vg.Centimeter / 4,
			PadBottom: vg.Centimeter / 4, PadLeft: vg.Centimeter / 4, PadRight: vg.Centimeter / 2}
		row := []*plot.Plot{}
		for _, p := range plots {
			row = append(row, p)
		}
		canvases := plot.Align([][]*plot.Plot{row}, tiles, dc)
		for i, p := range plots {
			p.Draw(canvases[0][i])
		}
	case Points:
		plots, err := f.plots()
		if err != nil {
			return err
		}
		dc, err := newCanvas(pointsWidth, f.height())
		if err != nil {
			return err
		}
		// Each panel in a band of the canvas as high as its rows, from the top.
		top := vg.Length(0)
		for i, p := range plots {
			h := f.Panels[i].height()
			p.Draw(draw.Crop(dc, vg.Centimeter/4, -vg.Centimeter/2, dc.Max.Y-dc.Min.Y-top-h, -top-vg.Centimeter/8))
			top += h
		}
	default:
		return fmt.Errorf("figure: cannot draw a %T", fig)
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("figure: writing %s: %w", format, err)
	}
	return nil
}

// xys adapts two slices to plotter.XYer.
type xys struct{ x, y []float64 }

func (p xys) Len() int                    { return len(p.x) }
func (p xys) XY(i int) (float64, float64) { return p.x[i], p.y[i] }

// withAlpha returns c with alpha a, premultiplied.
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	f := uint32(a)
	return color.RGBA{uint8(r >> 8 * f / 255), uint8(g >> 8 * f / 255), uint8(b >> 8 * f / 255), a}
}

func (f Curves) plot() (*plot.Plot, error) {
	if len(f.Series) == 0 {
		return nil, ErrEmpty
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = f.Title, f.XLabel, f.YLabel
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Tick.Marker, p.Y.Tick.Marker = compactTicks{}, compactTicks{}
	for i, s := range f.Series {
		if len(s.X) != len(s.Y) || (s.Lo != nil || s.Hi != nil) && (len(s.Lo) != len(s.X) || len(s.Hi) != len(s.X)) {
			return nil, fmt.Errorf("figure: series %q: X, Y, Lo and Hi of lengths %d, %d, %d, %d", s.Name, len(s.X), len(s.Y), len(s.Lo), len(s.Hi))
		}
		if len(s.X) == 0 {
			return nil, fmt.Errorf("figure: series %q has no points", s.Name)
		}
		col := plotutil.Color(i)
		var thumbs []plot.Thumbnailer
		if s.Lo != nil {
			// The band: along Hi, then back along Lo.
			n := len(s.X)
			bx, by := make([]float64, 0, 2*n), make([]float64, 0, 2*n)
			for j := range n {
				bx, by = append(bx, s.X[j]), append(by, s.Hi[j])
			}
			for j := n - 1; j >= 0; j-- {
				bx, by = append(bx, s.X[j]), append(by, s.Lo[j])
			}
			poly, err := plotter.NewPolygon(xys{bx, by})
			if err != nil {
				return nil, fmt.Errorf("figure: series %q: %w", s.Name, err)
			}
			poly.Color = withAlpha(col, 0x50)
			poly.LineStyle.Width = 0
			p.Add(poly)
			thumbs = append(thumbs, poly)
		}
		line, err := plotter.NewLine(xys{s.X, s.Y})
		if err != nil {
			return nil, fmt.Errorf("figure: series %q: %w", s.Name, err)
		}
		line.Color = col
		line.Width = vg.Points(1.5)
		p.Add(line)
		thumbs = append(thumbs, line)
		p.Legend.Add(s.Name, thumbs...)
	}
	// Room above the data for the legend, about one line of the legend
	// per 6.5 % of the data's height.
	if span := p.Y.Max - p.Y.Min; span > 0 {
		p.Y.Max += span * 0.065 * (float64(len(f.Series)) + 0.5)
	}
	return p, nil
}

// compactTicks are gonum's default ticks labelled in the shortest form,
// with k and M for thousands and millions: 25k rather than 25000.00.
type compactTicks struct{}

func (compactTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		v, suffix := t.Value, ""
		switch a := math.Abs(v); {
		case a >= 1e6:
			v, suffix = v/1e6, "M"
		case a >= 1e4:
			v, suffix = v/1e3, "k"
		}
		ticks[i].Label = strconv.FormatFloat(v, 'g', 4, 64) + suffix
	}
	return ticks
}

// Intervals is a figure of interval estimates: one panel per metric, in
// each one row per name with the metric's interval as a bar and its
// estimate as a tick.
type Intervals struct {
	// Metrics are the panels' titles, e.g. "IQM".
	Metrics []string
	// Rows are the names of the rows, e.g. algorithms, top to bottom.
	Rows []string
	// Values[m][r] is the interval of row r in panel m.
	Values [][]scores.Interval
	// XLabel labels every panel's x axis, e.g. "normalized score".
	XLabel string
}

func (f Intervals) plots() ([]*plot.Plot, error) {
	if len(f.Metrics) == 0 || len(f.Rows) == 0 {
		return nil, ErrEmpty
	}
	if len(f.Values) != len(f.Metrics) {
		return nil, fmt.Errorf("figure: %d metrics and %d columns of values", len(f.Metrics), len(f.Values))
	}
	var plots []*plot.Plot
	for m, name := range f.Metrics {
		if len(f.Values[m]) != len(f.Rows) {
			return nil, fmt.Errorf("figure: metric %q has %d values for %d rows", name, len(f.Values[m]), len(f.Rows))
		}
		p := plot.New()
		p.Title.Text, p.X.Label.Text = name, f.XLabel
		p.Add(plotter.NewGrid())
		// Rows top to bottom: row r at y = n−1−r.
		n := len(f.Rows)
		names := make([]string, n)
		lo, hi := math.Inf(1), math.Inf(-1)
		for r, iv := range f.Values[m] {
			lo, hi = min(lo, iv.Lo, iv.Estimate), max(hi, iv.Hi, iv.Estimate)
			y := float64(n - 1 - r)
			names[n-1-r] = f.Rows[r]
			col := plotutil.Color(r)
			bar, err := plotter.NewPolygon(xys{[]float64{iv.Lo, iv.Hi, iv.Hi, iv.Lo}, []float64{y - 0.3, y - 0.3, y + 0.3, y + 0.3}})
			if err != nil {
				return nil, err
			}
			bar.Color = withAlpha(col, 0x90)
			bar.LineStyle.Width = 0
			tick, err := plotter.NewLine(xys{[]float64{iv.Estimate, iv.Estimate}, []float64{y - 0.3, y + 0.3}})
			if err != nil {
				return nil, err
			}
			tick.Width = vg.Points(2)
			tick.Color = color.Black
			p.Add(bar, tick)
		}
		// A margin of a tenth of the span on each side, so that no bar
		// touches the frame.
		pad := (hi - lo) / 10
		if pad == 0 {
			pad = max(math.Abs(hi)/10, 0.1)
		}
		p.X.Min, p.X.Max = lo-pad, hi+pad
		p.NominalY(names...)
		if m > 0 {
			p.HideY()
		}
		plots = append(plots, p)
	}
	return plots, nil
}

// Points is a figure of scores per seed: one panel per group (an env,
// say), stacked top to bottom, in each one row per name (an algorithm)
// with its scores as dots and, where given, a mark (the score to reach) as
// a red tick across the row.
type Points struct {
	Panels []PointsPanel
	// XLabel labels every panel's x axis, e.g. "test return".
	XLabel string
}

// PointsPanel is one panel of a Points figure.
type PointsPanel struct {
	Title string
	// Rows are the names of the rows, top to bottom.
	Rows []string
	// Values[r] are row r's scores; NaNs and infinities are not drawn.
	Values [][]float64
	// Marks[r] is row r's mark, NaN for none; nil for no marks.
	Marks []float64
}

// The size of a Points figure: its width, and the height of a row and of
// a panel's title and axis.
const (
	pointsWidth  = 16 * vg.Centimeter
	pointsRow    = 0.45 * vg.Centimeter
	pointsMargin = 2.2 * vg.Centimeter
)

// height returns the height of the figure.
func (f Points) height() vg.Length {
	var h vg.Length
	for _, p := range f.Panels {
		h += p.height()
	}
	return h
}

// height returns the height of the panel's band: its rows, title and axis.
func (p PointsPanel) height() vg.Length {
	return vg.Length(len(p.Rows))*pointsRow + pointsMargin
}

func (f Points) plots() ([]*plot.Plot, error) {
	if len(f.Panels) == 0 {
		return nil, ErrEmpty
	}
	var plots []*plot.Plot
	for _, pn := range f.Panels {
		n := len(pn.Rows)
		switch {
		case n == 0:
			return nil, fmt.Errorf("figure: panel %q has no rows", pn.Title)
		case len(pn.Values) != n:
			return nil, fmt.Errorf("figure: panel %q has %d rows of values for %d names", pn.Title, len(pn.Values), n)
		case pn.Marks != nil && len(pn.Marks) != n:
			return nil, fmt.Errorf("figure: panel %q has %d marks for %d rows", pn.Title, len(pn.Marks), n)
		}
		p := plot.New()
		p.Title.Text, p.X.Label.Text = pn.Title, f.XLabel
		p.Add(plotter.NewGrid())
		p.X.Tick.Marker = compactTicks{}
		names := make([]string, n)
		lo, hi := math.Inf(1), math.Inf(-1)
		for r, vs := range pn.Values {
			// Rows top to bottom: row r at y = n−1−r.
			y := float64(n - 1 - r)
			names[n-1-r] = pn.Rows[r]
			if pn.Marks != nil && !math.IsNaN(pn.Marks[r]) {
				m := pn.Marks[r]
				lo, hi = min(lo, m), max(hi, m)
				tick, err := plotter.NewLine(xys{[]float64{m, m}, []float64{y - 0.4, y + 0.4}})
				if err != nil {
					return nil, err
				}
				tick.Width = vg.Points(2)
				tick.Color = color.RGBA{R: 0xd0, A: 0xff}
				p.Add(tick)
			}
			var xs, ys []float64
			for _, v := range vs {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = min(lo, v), max(hi, v)
					xs, ys = append(xs, v), append(ys, y)
				}
			}
			if len(xs) == 0 {
				continue
			}
			dots, err := plotter.NewScatter(xys{xs, ys})
			if err != nil {
				return nil, fmt.Errorf("figure: panel %q, row %q: %w", pn.Title, pn.Rows[r], err)
			}
			dots.GlyphStyle.Color = withAlpha(color.Black, 0xa0)
			dots.GlyphStyle.Radius = vg.Points(2.5)
			dots.GlyphStyle.Shape = draw.CircleGlyph{}
			p.Add(dots)
		}
		if math.IsInf(lo, 1) {
			return nil, fmt.Errorf("figure: panel %q has no values and no marks", pn.Title)
		}
		pad := (hi - lo) / 20
		if pad == 0 {
			pad = max(math.Abs(hi)/10, 0.1)
		}
		p.X.Min, p.X.Max = lo-pad, hi+pad
		p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
		p.NominalY(names...)
		plots = append(plots, p)
	}
	return plots, nil
}
