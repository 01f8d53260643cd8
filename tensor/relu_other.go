//go:build !amd64 || gorl_noasm

package tensor

// relu is reluGo: there is no assembly kernel for this platform (or the build
// tag gorl_noasm left it out).
func relu(y, x []float32) { reluGo(y, x) }

// reluBack is reluBackGo (see relu).
func reluBack(dst, g, y []float32, acc bool) { reluBackGo(dst, g, y, acc) }
