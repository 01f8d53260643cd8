package batch_test

import (
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

type point struct{ X, Y int }

type named struct{}

func (named) String() string { return "named!" }

// TestString checks the nested layout of the seeds' printouts, where the
// layout is the point (indentation of nested Batches and of numpy's
// multi-line arrays, including the blank separator lines of 3-d arrays).
func TestString(t *testing.T) {
	tests := []struct {
		name string
		b    *batch.Batch
		want string
	}{
		{"empty", batch.MustNew(), "Batch()"},
		// Seed 001 §6.4's printout.
		{"3-d arrays", func() *batch.Batch {
			s, err := batch.Stack(0,
				batch.MustNew("shared", []int{1, 2}, "a", nd.MustNew([][]float64{{1, 1, 1}, {1, 1, 1}})),
				batch.MustNew("shared", []int{3, 4}, "b", nd.Zeros(nd.Float64, 2, 4)))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}(), "Batch(\n" +
			"    shared: array([[1, 2],\n" +
			"                   [3, 4]]),\n" +
			"    a: array([[[1., 1., 1.],\n" +
			"               [1., 1., 1.]],\n" +
			"       \n" +
			"              [[0., 0., 0.],\n" +
			"               [0., 0., 0.]]]),\n" +
			"    b: array([[[0., 0., 0., 0.],\n" +
			"               [0., 0., 0., 0.]],\n" +
			"       \n" +
			"              [[0., 0., 0., 0.],\n" +
			"               [0., 0., 0., 0.]]]),\n" +
			")"},
		// Seed 001 §3.1 and §6.1.
		{"nested", batch.MustNew("obs", batch.MustNew("camera", batch.MustNew(), "lidar", nd.Zeros(nd.Float64, 10)), "act", 5),
			"Batch(\n" +
				"    obs: Batch(\n" +
				"             camera: Batch(),\n" +
				"             lidar: array([0., 0., 0., 0., 0., 0., 0., 0., 0., 0.]),\n" +
				"         ),\n" +
				"    act: array(5),\n" +
				")"},
		{"two levels", batch.MustNew("a", batch.MustNew("b", batch.MustNew("c", []int{1, 2}))),
			"Batch(\n" +
				"    a: Batch(\n" +
				"           b: Batch(\n" +
				"                  c: array([1, 2]),\n" +
				"              ),\n" +
				"       ),\n" +
				")"},
		{"scalars", batch.MustNew("s", "it's", "q", `say "hi"`, "both", `'"`, "n", nil, "p", point{1, 2}, "named", named{}),
			"Batch(\n" +
				`    s: "it's",` + "\n" +
				`    q: 'say "hi"',` + "\n" +
				`    both: '\'"',` + "\n" +
				"    n: None,\n" +
				"    p: {1 2},\n" +
				"    named: named!,\n" +
				")"},
		// A custom leaf prints through its String; its continuation lines
		// are indented by the key, as any value's are.
		{"leaf", batch.MustNew("dist", mustCategorical(t, [][]float64{{0.5, 0.5}, {0.1, 0.9}})),
			"Batch(\n" +
				"    dist: Categorical(probs: array([[0.5, 0.5],\n" +
				"                 [0.1, 0.9]])),\n" +
				")"},
		{"control characters", batch.MustNew("s", "a\tb\nc\\\x01"), "Batch(\n    s: 'a\\tb\\nc\\\\\\x01',\n)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.b.String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
