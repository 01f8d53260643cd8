//go:build !gorl_noasm

package tensor

// reluSSE and reluBackSSE are reluGo and reluBackGo for the first
// len(y)/4·4 (len(g)/4·4) elements, four per instruction with SSE2, which
// every amd64 processor has. They are in relu_amd64.s.
//
//go:noescape
func reluSSE(y, x []float32)

//go:noescape
func reluBackSSE(dst, g, y []float32, acc bool)

// relu is reluGo, computed by reluSSE.
func relu(y, x []float32) {
	n4 := len(y) &^ 3
	x = x[:len(y)]
	reluSSE(y[:n4], x[:n4])
	reluGo(y[n4:], x[n4:])
}

// reluBack is reluBackGo, computed by reluBackSSE.
func reluBack(dst, g, y []float32, acc bool) {
	n4 := len(g) &^ 3
	dst, y = dst[:len(g)], y[:len(g)]
	reluBackSSE(dst[:n4], g[:n4], y[:n4], acc)
	reluBackGo(dst[n4:], g[n4:], y[n4:], acc)
}
