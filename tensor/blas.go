package tensor

import "github.com/gorl/gorl/tensor/internal/blas"

// BLASEnv is the environment variable that selects the matrix-product
// implementation: unset or "openblas" loads OpenBLAS (libopenblas.so.0) at run
// time when it is installed, "gonum" uses gonum's pure-Go BLAS (or whatever
// blas32.Use installed). It is read once, at the first matrix product.
const BLASEnv = blas.EnvVar

// BLASName describes the implementation that computes matrix products, for
// example "gonum" or "openblas 0.3.21 (SkylakeX, 1 thread)", so benchmarks can
// say what they measured.
func BLASName() string { return blas.Name() }

// BLASLoadError reports why OpenBLAS is not in use (not installed, switched
// off by BLASEnv, unsupported platform), or nil when it is.
func BLASLoadError() error { return blas.LoadError() }
