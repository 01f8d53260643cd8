//go:build !linux || !(amd64 || arm64) || gorl_noopenblas

package blas

import "errors"

func loadOpenBLAS() (gemmFunc, string, error) {
	return nil, "", errors.New("blas: OpenBLAS loading is built only for linux on amd64 and arm64 without the gorl_noopenblas tag")
}
