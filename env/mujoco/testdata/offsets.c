// offsets prints the byte offsets of the mjModel and mjData fields that the
// mujoco package reads, in the form of the constant block of offsets.go.
// Build it against the MuJoCo headers the constants are for:
//
//	cc -o offsets testdata/offsets.c && ./offsets
//
// The package's tests build and run it where a C compiler and the headers
// are installed, and compare its output with offsets.go.
#include <stddef.h>
#include <stdio.h>
#include <mujoco/mujoco.h>

#define M(g, f) printf("\t%s = %zu\n", g, offsetof(mjModel, f));
#define D(g, f) printf("\t%s = %zu\n", g, offsetof(mjData, f));

int main(void) {
	printf("\theaderVersion = %d\n", mjVERSION_HEADER);
	printf("\tsizeofModel = %zu\n", sizeof(mjModel));
	printf("\tsizeofData = %zu\n", sizeof(mjData));
	M("mNQ", nq) M("mNV", nv) M("mNU", nu) M("mNA", na) M("mNBody", nbody)
	M("mNJnt", njnt) M("mNGeom", ngeom) M("mNSite", nsite)
	printf("\tmOptTimestep = %zu\n", offsetof(mjModel, opt) + offsetof(mjOption, timestep));
	M("mQpos0", qpos0) M("mBodyMass", body_mass)
	M("mGeomType", geom_type) M("mGeomBodyID", geom_bodyid) M("mGeomSize", geom_size)
	M("mGeomRGBA", geom_rgba) M("mActuatorCtrlRange", actuator_ctrlrange)
	D("dTime", time) D("dQpos", qpos) D("dQvel", qvel) D("dQaccWarmstart", qacc_warmstart)
	D("dCtrl", ctrl) D("dXpos", xpos) D("dXipos", xipos) D("dGeomXpos", geom_xpos)
	D("dGeomXmat", geom_xmat) D("dSiteXpos", site_xpos) D("dCinert", cinert) D("dCvel", cvel)
	D("dQfrcActuator", qfrc_actuator) D("dQfrcConstraint", qfrc_constraint) D("dCfrcExt", cfrc_ext)
	D("dWarning", warning)
	printf("\twarnBadQpos = %d\n", mjWARN_BADQPOS);
	printf("\twarnBadCtrl = %d\n", mjWARN_BADCTRL);
	return 0;
}
