// Package raster fills the few shapes the classic-control scenes are made of (polygons, discs,
// annular sectors and one-pixel lines) into an RGBA frame, without anti-aliasing and without
// allocating.
//
// Coordinates are pixels in a y-up frame, the one Gymnasium draws its scenes in before flipping
// the picture vertically: the point (x, y) addresses column x and row H−1−y of the image, where H
// is the image height. A pixel is painted when its integer coordinates (i, j) lie inside the
// shape, so a shape's vertices may be fractional and parts outside the frame are clipped.
package raster

import (
	"image"
	"image/color"
	"math"
)

// Point is a position in the y-up pixel frame.
type Point struct{ X, Y float64 }

// MaxVertices is the largest number of vertices Polygon accepts.
const MaxVertices = 16

// Canvas draws into an *image.RGBA. It is a small value: copy it freely.
type Canvas struct {
	img  *image.RGBA
	w, h int
}

// New returns a canvas drawing into img. New panics if img's bounds do not start at (0, 0).
func New(img *image.RGBA) Canvas {
	if img.Rect.Min != (image.Point{}) {
		panic("raster: image bounds must start at (0, 0)")
	}
	return Canvas{img: img, w: img.Rect.Dx(), h: img.Rect.Dy()}
}

// set paints pixel (i, j) of the y-up frame; the caller has clipped (i, j) to the frame.
func (c Canvas) set(i, j int, col color.RGBA) {
	off := (c.h-1-j)*c.img.Stride + 4*i
	p := c.img.Pix[off : off+4 : off+4]
	p[0], p[1], p[2], p[3] = col.R, col.G, col.B, col.A
}

// span paints pixels (i, j) for i from ceil(x0) to floor(x1), clipped to the frame.
func (c Canvas) span(x0, x1 float64, j int, col color.RGBA) {
	if j < 0 || j >= c.h {
		return
	}
	i0 := int(math.Max(math.Ceil(x0), 0))
	i1 := int(math.Min(math.Floor(x1), float64(c.w-1)))
	for i := i0; i <= i1; i++ {
		c.set(i, j, col)
	}
}

// rows returns the rows j with y0 ≤ j ≤ y1 that lie in the frame, as a half-open range.
func (c Canvas) rows(y0, y1 float64) (lo, hi int) {
	lo = int(math.Max(math.Ceil(y0), 0))
	hi = int(math.Min(math.Floor(y1), float64(c.h-1))) + 1
	return lo, hi
}

// Fill paints the whole frame.
func (c Canvas) Fill(col color.RGBA) {
	pix := c.img.Pix
	row := pix[:4*c.w]
	for i := 0; i < len(row); i += 4 {
		row[i], row[i+1], row[i+2], row[i+3] = col.R, col.G, col.B, col.A
	}
	for j := 1; j < c.h; j++ {
		copy(pix[j*c.img.Stride:], row)
	}
}

// Polygon fills the polygon with the given vertices (in order, either orientation, convex or
// not) by the even-odd rule. An edge counts on the rows from its lower end up to, but not
// including, its upper end, so a rectangle from y = 0 to y = 2 covers rows 0 and 1. Polygon
// panics if it is given more than MaxVertices vertices.
func (c Canvas) Polygon(pts []Point, col color.RGBA) {
	if len(pts) > MaxVertices {
		panic("raster: polygon has more than MaxVertices vertices")
	}
	if len(pts) < 3 {
		return
	}
	minY, maxY := pts[0].Y, pts[0].Y
	for _, p := range pts[1:] {
		minY = math.Min(minY, p.Y)
		maxY = math.Max(maxY, p.Y)
	}
	var xs [MaxVertices]float64
	lo, hi := c.rows(minY, maxY)
	for j := lo; j < hi; j++ {
		y := float64(j)
		n := 0
		a := pts[len(pts)-1]
		for _, b := range pts {
			if (a.Y <= y) != (b.Y <= y) {
				x := a.X + (y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
				// Insertion sort: there are at most MaxVertices crossings.
				k := n
				for k > 0 && xs[k-1] > x {
					xs[k] = xs[k-1]
					k--
				}
				xs[k] = x
				n++
			}
			a = b
		}
		for k := 0; k+1 < n; k += 2 {
			c.span(xs[k], xs[k+1], j, col)
		}
	}
}

// Disc fills the disc of radius r around (cx, cy).
func (c Canvas) Disc(cx, cy, r float64, col color.RGBA) {
	lo, hi := c.rows(cy-r, cy+r)
	for j := lo; j < hi; j++ {
		dy := float64(j) - cy
		half := math.Sqrt(math.Max(r*r-dy*dy, 0))
		c.span(cx-half, cx+half, j, col)
	}
}

// Sector fills the part of the annulus r0 ≤ ρ ≤ r1 around (cx, cy) whose polar angle, measured
// counter-clockwise from the x axis, lies in [from, from+sweep]. Angles are in radians; a sweep
// of 2π or more fills the whole annulus. Pixels exactly on the sector's straight edges may fall
// either way.
func (c Canvas) Sector(cx, cy, r0, r1, from, sweep float64, col color.RGBA) {
	// p lies in the sector iff it is within π counter-clockwise of u = (cos from, sin from),
	// cross(u, p) ≥ 0, and within π clockwise of v, the direction of the sector's end,
	// cross(p, v) ≥ 0: both for a sweep up to π, either for a larger one.
	uy, ux := math.Sincos(from)
	vy, vx := math.Sincos(from + sweep)
	full, wide := sweep >= 2*math.Pi, sweep > math.Pi
	lo, hi := c.rows(cy-r1, cy+r1)
	i0 := int(math.Max(math.Ceil(cx-r1), 0))
	i1 := int(math.Min(math.Floor(cx+r1), float64(c.w-1)))
	for j := lo; j < hi; j++ {
		dy := float64(j) - cy
		for i := i0; i <= i1; i++ {
			dx := float64(i) - cx
			d2 := dx*dx + dy*dy
			if d2 < r0*r0 || d2 > r1*r1 {
				continue
			}
			afterFrom := ux*dy-uy*dx >= 0
			beforeEnd := dx*vy-dy*vx >= 0
			if full || (wide && (afterFrom || beforeEnd)) || (afterFrom && beforeEnd) {
				c.set(i, j, col)
			}
		}
	}
}

// Line draws a one-pixel line from a to b, both ends included: one pixel per step along the
// longer axis, at the nearest pixel on the other.
func (c Canvas) Line(a, b Point, col color.RGBA) {
	dx, dy := b.X-a.X, b.Y-a.Y
	n := int(math.Ceil(math.Max(math.Abs(dx), math.Abs(dy))))
	for k := 0; k <= n; k++ {
		t := 0.0
		if n > 0 {
			t = float64(k) / float64(n)
		}
		i := int(math.Floor(a.X + t*dx + 0.5))
		j := int(math.Floor(a.Y + t*dy + 0.5))
		if uint(i) < uint(c.w) && uint(j) < uint(c.h) {
			c.set(i, j, col)
		}
	}
}
