package tensor

import "github.com/gorl/gorl/internal/par"

// WorkersEnv is the environment variable that caps the number of goroutines
// the package's kernels use (GOMAXPROCS by default).
const WorkersEnv = par.EnvVar

// Workers returns the number of goroutines that convolutions, large matrix
// products and large elementwise kernels split their work over: the count
// set with SetWorkers, or else GOMAXPROCS capped by WorkersEnv.
func Workers() int { return par.Workers() }

// SetWorkers sets the number of goroutines the kernels use (n < 1 restores
// the default). Results do not depend on it: work is cut by the sizes of
// the data alone, and sums across pieces are added in a fixed order. It
// applies to the whole process, optimizers included.
func SetWorkers(n int) { par.SetWorkers(n) }

// elemGrain is the fewest elements that an elementwise kernel splits over
// the workers, and the fewest each piece gets.
const elemGrain = 1 << 16

// elemTask runs an elementwise kernel over chunks of its slices.
type elemTask struct {
	op      int // elemReLU or elemReLUBack
	size    int
	y, x, g []float32
	acc     bool
}

const (
	elemReLU = iota
	elemReLUBack
)

var elemTasks par.Free[elemTask]

func (t *elemTask) Task(i, _ int) {
	lo := i * t.size
	hi := min(lo+t.size, len(t.x))
	switch t.op {
	case elemReLU:
		relu(t.y[lo:hi], t.x[lo:hi])
	case elemReLUBack: // y is dst, x the result, g the gradient
		reluBack(t.y[lo:hi], t.g[lo:hi], t.x[lo:hi], t.acc)
	}
}

// runElem runs t over its slices, split when they are long enough.
func runElem(op int, y, x, g []float32, acc bool) {
	n := len(x)
	count, size := par.Chunks(n, elemGrain, 64)
	t := elemTasks.Get()
	*t = elemTask{op: op, size: size, y: y, x: x, g: g, acc: acc}
	par.Run(count, par.Workers(), t)
	*t = elemTask{}
	elemTasks.Put(t)
}

// reluPar is relu, split over the workers for long slices.
func reluPar(y, x []float32) {
	if len(y) < 2*elemGrain {
		relu(y, x)
		return
	}
	runElem(elemReLU, y, x[:len(y)], nil, false)
}

// reluBackPar is reluBack, split over the workers for long slices.
func reluBackPar(dst, g, y []float32, acc bool) {
	if len(g) < 2*elemGrain {
		reluBack(dst, g, y, acc)
		return
	}
	runElem(elemReLUBack, dst[:len(g)], y[:len(g)], g, acc)
}
