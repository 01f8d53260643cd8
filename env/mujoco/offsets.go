package mujoco

// Byte offsets of the mjModel and mjData fields this package reads, and the
// range of mjtWarning values it checks (bad qpos, qvel, qacc, ctrl), for the
// MuJoCo release named by headerVersion (Debian's libmujoco2.2.2). They
// were printed by testdata/offsets.c from that release's headers;
// TestOffsets rebuilds that program where a C compiler and the headers are
// installed and compares, and the library's own version is checked when it
// is loaded. Offsets are those of x86-64 and arm64 Linux (LP64), the
// platforms the loader supports.
const (
	headerVersion      = 222
	sizeofModel        = 3280
	sizeofData         = 41176
	mNQ                = 0
	mNV                = 4
	mNU                = 8
	mNA                = 12
	mNBody             = 16
	mNJnt              = 20
	mNGeom             = 24
	mNSite             = 28
	mOptTimestep       = 232
	mQpos0             = 1096
	mBodyMass          = 1240
	mGeomType          = 1488
	mGeomBodyID        = 1520
	mGeomSize          = 1592
	mGeomRGBA          = 1664
	mActuatorCtrlRange = 2792
	dTime              = 40336
	dQpos              = 40376
	dQvel              = 40384
	dQaccWarmstart     = 40400
	dCtrl              = 40408
	dXpos              = 40480
	dXipos             = 40504
	dGeomXpos          = 40536
	dGeomXmat          = 40544
	dSiteXpos          = 40552
	dCinert            = 40616
	dCvel              = 40960
	dQfrcActuator      = 41088
	dQfrcConstraint    = 41136
	dCfrcExt           = 41168
	dWarning           = 24
	warnBadQpos        = 4
	warnBadCtrl        = 7
)
