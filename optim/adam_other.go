//go:build !amd64 || gorl_noasm

package optim

// adamUpdate is adamGo: there is no assembly kernel for this platform (or
// the build tag gorl_noasm left it out).
func adamUpdate(p, g, m, v, vmax []float32, k *adamCoef) { adamGo(p, g, m, v, vmax, k) }
