package sumtree_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/internal/sumtree"
)

// Prioritized sampling: leaf i is drawn with probability v[i] / Sum().
func ExampleTree() {
	t := sumtree.New[float64](5)
	// Priorities of five stored transitions; leaf 3 was never set.
	if err := t.SetMany([]int{0, 1, 2, 4}, []float64{1, 2, 0.5, 4.5}); err != nil {
		panic(err)
	}
	fmt.Printf("sum %.3f, min %.3f, sum of leaves 1..2 %.3f\n", t.Sum(), t.Min(), t.SumRange(1, 3))

	// Prefix sums are 1, 3, 3.5, 3.5, 8: x in [3, 3.5) selects leaf 2 and
	// x in [3.5, 8) leaf 4; leaf 3 (value 0) is never selected.
	for _, x := range []float64{0, 2.9, 3.2, 3.5, 7.9} {
		fmt.Printf("x = %.1f -> leaf %d\n", x, t.FindPrefixSum(x))
	}

	// Draw a batch of 4 indices with x ~ U[0, Sum()).
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 4)
	for k := range xs {
		xs[k] = rng.Float64() * t.Sum()
	}
	idx := make([]int, len(xs))
	t.FindPrefixSumTo(idx, xs)
	fmt.Println("batch:", idx)

	// A negative priority is refused and leaves the tree unchanged.
	if err := t.Set(3, -1); err != nil {
		fmt.Println(err)
	}
	// Output:
	// sum 8.000, min 0.500, sum of leaves 1..2 2.500
	// x = 0.0 -> leaf 0
	// x = 2.9 -> leaf 1
	// x = 3.2 -> leaf 2
	// x = 3.5 -> leaf 4
	// x = 7.9 -> leaf 4
	// batch: [4 4 4 2]
	// sumtree: value -1 for leaf 3 is not in [0, 1.1235582092889473e+307]
}
