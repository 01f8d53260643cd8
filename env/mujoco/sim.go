package mujoco

import (
	"fmt"
	"unsafe"
)

// sim is one compiled model and its simulation data, with Go slices over
// the C arrays this package reads or writes. The slices stay valid until
// close: MuJoCo allocates each mjData's arrays once, in mj_makeData.
type sim struct {
	lib  *library
	m, d uintptr
	md   []uintptr // {m, d}, the arguments of most calls

	nq, nv, nu, nbody, ngeom, nsite int
	timestep                        float64

	time *float64 // mjData.time

	qpos0, qpos, qvel, warm, ctrl []float64
	bodyMass, xpos, xipos         []float64
	geomSize, geomXpos, geomXmat  []float64
	siteXpos, cinert, cvel        []float64
	qfrcActuator, qfrcConstraint  []float64
	cfrcExt, ctrlRange            []float64
	geomType, geomBody            []int32
	geomRGBA                      []float32

	// warning is mjData.warning as int32 pairs {lastinfo, number}.
	warning []int32
}

// newSim compiles xml and makes its data.
func newSim(xml []byte) (*sim, error) {
	l, err := loadLibrary()
	if err != nil {
		return nil, err
	}
	m, err := l.compile(xml)
	if err != nil {
		return nil, err
	}
	d := l.call(l.makeData, m)
	if d == 0 {
		l.call(l.deleteModel, m)
		return nil, fmt.Errorf("mujoco: mj_makeData failed")
	}
	s := &sim{lib: l, m: m, d: d, md: []uintptr{m, d}}
	mi := func(off uintptr) int { return int(*(*int32)(cPointer(m + off))) }
	s.nq, s.nv, s.nu = mi(mNQ), mi(mNV), mi(mNU)
	s.nbody, s.ngeom, s.nsite = mi(mNBody), mi(mNGeom), mi(mNSite)
	s.timestep = *(*float64)(cPointer(m + mOptTimestep))
	s.time = (*float64)(cPointer(d + dTime))
	mf := func(off uintptr, n int) []float64 { return floats(m, off, n) }
	df := func(off uintptr, n int) []float64 { return floats(d, off, n) }
	s.qpos0 = mf(mQpos0, s.nq)
	s.bodyMass = mf(mBodyMass, s.nbody)
	s.geomSize = mf(mGeomSize, 3*s.ngeom)
	s.ctrlRange = mf(mActuatorCtrlRange, 2*s.nu)
	s.geomType = unsafe.Slice((*int32)(*(*unsafe.Pointer)(cPointer(m + mGeomType))), s.ngeom)
	s.geomBody = unsafe.Slice((*int32)(*(*unsafe.Pointer)(cPointer(m + mGeomBodyID))), s.ngeom)
	s.geomRGBA = unsafe.Slice((*float32)(*(*unsafe.Pointer)(cPointer(m + mGeomRGBA))), 4*s.ngeom)
	s.qpos, s.qvel = df(dQpos, s.nq), df(dQvel, s.nv)
	s.warm, s.ctrl = df(dQaccWarmstart, s.nv), df(dCtrl, s.nu)
	s.xpos, s.xipos = df(dXpos, 3*s.nbody), df(dXipos, 3*s.nbody)
	s.geomXpos, s.geomXmat = df(dGeomXpos, 3*s.ngeom), df(dGeomXmat, 9*s.ngeom)
	s.siteXpos = df(dSiteXpos, 3*s.nsite)
	s.cinert, s.cvel = df(dCinert, 10*s.nbody), df(dCvel, 6*s.nbody)
	s.qfrcActuator, s.qfrcConstraint = df(dQfrcActuator, s.nv), df(dQfrcConstraint, s.nv)
	s.cfrcExt = df(dCfrcExt, 6*s.nbody)
	s.warning = unsafe.Slice((*int32)(cPointer(d+dWarning)), 2*(warnBadCtrl+1))
	return s, nil
}

// floats returns the n float64s that the pointer field at base+off points to.
func floats(base, off uintptr, n int) []float64 {
	p := *(*unsafe.Pointer)(cPointer(base + off))
	if n == 0 || p == nil {
		return nil
	}
	return unsafe.Slice((*float64)(p), n)
}

// Object types of mj_name2id (mjtObj).
const (
	objBody = 1
	objSite = 6
)

// id returns the id of the named object of type typ.
func (s *sim) id(typ int, name string) (int, error) {
	n := cString(name)
	id := int(int32(s.lib.call(s.lib.name2id, s.m, uintptr(typ), uintptr(unsafe.Pointer(&n[0])))))
	if id < 0 {
		return 0, fmt.Errorf("mujoco: the model has no object %q of type %d", name, typ)
	}
	return id, nil
}

// step advances the simulation by n physics steps with the current
// controls, then computes the constraint forces on bodies (cfrc_ext), as
// Gymnasium's MujocoEnv does after each frame skip.
func (s *sim) step(n int) {
	for range n {
		s.lib.callMD(s.lib.step, s.md)
	}
	s.lib.callMD(s.lib.rnePost, s.md)
}

// badValues lists the quantities of MuJoCo's bad-value warnings, from
// warnBadQpos to warnBadCtrl.
var badValues = [...]string{"qpos", "qvel", "qacc", "ctrl"}

// takeBad returns the quantity in which MuJoCo found a NaN, infinite or huge
// value since the last call (it then resets the simulation, or zeroes the
// controls), or "" if none, and clears the counts.
func (s *sim) takeBad() string {
	bad := ""
	for i, name := range badValues {
		n := &s.warning[2*(warnBadQpos+i)+1]
		if *n != 0 && bad == "" {
			bad = name
		}
		*n = 0
	}
	return bad
}

func (s *sim) forward()   { s.lib.callMD(s.lib.forward, s.md) }
func (s *sim) resetData() { s.lib.callMD(s.lib.resetData, s.md) }

// close frees the data and the model. The slices must not be used after.
func (s *sim) close() {
	if s.d != 0 {
		s.lib.call(s.lib.deleteData, s.d)
		s.lib.call(s.lib.deleteModel, s.m)
		s.m, s.d = 0, 0
	}
}
