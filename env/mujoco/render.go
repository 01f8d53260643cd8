package mujoco

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/gorl/gorl/env"
)

// FrameSize is the width and height of the frames Render draws, those of
// Gymnasium's MuJoCo renderer.
const FrameSize = 480

// Geom types (mjtGeom).
const (
	geomPlane     = 0
	geomSphere    = 2
	geomCapsule   = 3
	geomEllipsoid = 4
	geomCylinder  = 5
	geomBox       = 6
)

var (
	sky   = color.RGBA{R: 178, G: 204, B: 229, A: 255}
	tileA = color.RGBA{R: 204, G: 230, B: 204, A: 255}
	tileB = color.RGBA{R: 170, G: 196, B: 170, A: 255}
)

// Render draws the current state into the env's frame, a FrameSize square,
// and returns it; the frame is redrawn by the next Render. The picture is
// an orthographic projection, drawn without OpenGL: side-on (x right,
// z up) for most tasks, from above for Reacher and Swimmer. Capsules,
// cylinders and spheres are drawn as their exact outlines; boxes and
// ellipsoids as discs of their largest half-size; the floor as tiles half a
// metre wide. Geoms are painted far to near, each in its own colour. It
// returns an error wrapping env.ErrNeedReset before the first Reset.
func (e *Env) Render() (image.Image, error) {
	if !e.hasState {
		return nil, fmt.Errorf("%s: Render: %w", e.t.id, env.ErrNeedReset)
	}
	if e.frame == nil {
		e.frame = image.NewRGBA(image.Rect(0, 0, FrameSize, FrameSize))
		e.order = make([]int, e.s.ngeom)
	}
	e.draw(e.frame)
	return e.frame, nil
}

// project maps a world point to frame coordinates (column, row).
type projection struct {
	v        view
	cx, cy   float64 // world coordinates at the frame's centre
	half     float64
	floorTop float64 // world height of the floor
}

func (p *projection) toFrame(x, y, z float64) (float64, float64) {
	u, w := x, z
	if p.v.top {
		w = y
	}
	return p.half + (u-p.cx)*p.v.scale, p.half - (w-p.cy)*p.v.scale
}

// depth returns how far from the camera a point is: larger is farther.
func (p *projection) depth(x, y, z float64) float64 {
	if p.v.top {
		return -z
	}
	return y
}

func (e *Env) draw(img *image.RGBA) {
	s := e.s
	p := projection{v: e.t.view, half: FrameSize / 2, cy: e.t.view.centerZ, floorTop: math.Inf(-1)}
	if p.v.track && s.nbody > 1 {
		p.cx = s.xpos[3]
		if p.v.top {
			p.cy = s.xpos[4]
		}
	}
	for g := range s.ngeom {
		if s.geomType[g] == geomPlane {
			p.floorTop = math.Max(p.floorTop, s.geomXpos[3*g+2])
		}
	}
	e.background(img, &p)
	order := e.order[:0]
	for g := range s.ngeom {
		if s.geomType[g] != geomPlane && s.geomRGBA[4*g+3] > 0 {
			order = append(order, g)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		da := p.depth(s.geomXpos[3*a], s.geomXpos[3*a+1], s.geomXpos[3*a+2])
		db := p.depth(s.geomXpos[3*b], s.geomXpos[3*b+1], s.geomXpos[3*b+2])
		switch {
		case da > db:
			return -1
		case da < db:
			return 1
		}
		return 0
	})
	for _, g := range order {
		e.drawGeom(img, &p, g)
	}
}

// background fills the frame with sky and, side-on, the floor below its
// height; from above, the whole frame is floor. The floor is tiled so that
// motion shows.
func (e *Env) background(img *image.RGBA, p *projection) {
	tile := 0.5 * p.v.scale
	for j := range FrameSize {
		row := img.Pix[j*img.Stride : j*img.Stride+4*FrameSize]
		floorRow := p.v.top
		if !p.v.top && !math.IsInf(p.floorTop, -1) {
			_, fy := p.toFrame(0, 0, p.floorTop)
			floorRow = float64(j) >= fy
		}
		wy := int(math.Floor((float64(j) - p.half) / tile))
		for i := range FrameSize {
			c := sky
			if floorRow {
				wx := int(math.Floor((float64(i)-p.half)/tile + p.cx*p.v.scale/tile))
				c = tileA
				if (wx+wy)&1 != 0 {
					c = tileB
				}
			}
			row[4*i], row[4*i+1], row[4*i+2], row[4*i+3] = c.R, c.G, c.B, 255
		}
	}
}

// drawGeom paints geom g: every pixel whose centre lies within the
// projected outline. A capsule's outline is the set of points within its
// radius of its projected axis; a cylinder is drawn as a capsule.
func (e *Env) drawGeom(img *image.RGBA, p *projection, g int) {
	s := e.s
	size := s.geomSize[3*g : 3*g+3]
	pos := s.geomXpos[3*g : 3*g+3]
	mat := s.geomXmat[9*g : 9*g+9]
	rgba := s.geomRGBA[4*g : 4*g+4]
	c := color.RGBA{R: unit8(rgba[0]), G: unit8(rgba[1]), B: unit8(rgba[2]), A: 255}
	r := size[0]
	var half float64 // half-length of the axis, along the geom's local z
	switch s.geomType[g] {
	case geomCapsule, geomCylinder:
		half = size[1]
	case geomSphere:
	default:
		r = math.Max(size[0], math.Max(size[1], size[2]))
	}
	// The axis is the third column of the rotation matrix (row-major).
	ax, ay, az := mat[2]*half, mat[5]*half, mat[8]*half
	x0, y0 := p.toFrame(pos[0]-ax, pos[1]-ay, pos[2]-az)
	x1, y1 := p.toFrame(pos[0]+ax, pos[1]+ay, pos[2]+az)
	rp := r * p.v.scale
	lo := func(a, b float64) int { return max(0, int(math.Floor(math.Min(a, b)-rp))) }
	hi := func(a, b float64) int { return min(FrameSize-1, int(math.Ceil(math.Max(a, b)+rp))) }
	dx, dy := x1-x0, y1-y0
	l2 := dx*dx + dy*dy
	for j := lo(y0, y1); j <= hi(y0, y1); j++ {
		py := float64(j) + 0.5
		for i := lo(x0, x1); i <= hi(x0, x1); i++ {
			px := float64(i) + 0.5
			t := 0.0
			if l2 > 0 {
				t = math.Max(0, math.Min(1, ((px-x0)*dx+(py-y0)*dy)/l2))
			}
			qx, qy := px-x0-t*dx, py-y0-t*dy
			if qx*qx+qy*qy <= rp*rp {
				k := j*img.Stride + 4*i
				img.Pix[k], img.Pix[k+1], img.Pix[k+2], img.Pix[k+3] = c.R, c.G, c.B, 255
			}
		}
	}
}

func unit8(v float32) uint8 { return uint8(math.Round(float64(max(0, min(1, v))) * 255)) }
