package tensor_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nd/ndtest"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// seq returns a leaf holding 0, 1, 2, … in the given shape.
func seq(shape ...int) *tensor.Tensor {
	t := tensor.New(shape...)
	for i := range t.Data() {
		t.Data()[i] = float32(i)
	}
	return t
}

// checkIndex compares tp.Index(x, idx...) with nd's indexing of the same
// values, the reference (numpy's semantics), and checks that the result is a
// view exactly when the selected elements are one contiguous block.
func checkIndex(t *testing.T, tp *tensor.Tape, x *tensor.Tensor, idx []nd.Index) {
	t.Helper()
	ref, err := nd.FromSlice(append([]float32{}, x.Data()...))
	if err == nil {
		ref, err = ref.Reshape(x.Shape()...)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := ref.Index(idx...)
	got := tp.Index(x, idx...)
	if fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape()) {
		t.Errorf("%v: shape %v, want %v", idx, got.Shape(), want.Shape())
		return
	}
	wv := nd.ToSlice[float32](want)
	contiguous := true
	for i, v := range got.Data() {
		if v != wv[i] {
			t.Errorf("%v: element %d = %g, want %g", idx, i, v, wv[i])
		}
		// x holds 0, 1, 2, …: the values are the positions.
		contiguous = contiguous && wv[i] == wv[0]+float32(i)
	}
	if got.Len() == 0 {
		return
	}
	old := x.Data()[int(wv[0])]
	got.Data()[0] = -1
	if view := x.Data()[int(wv[0])] == -1; view != contiguous {
		t.Errorf("%v: view %v, want %v", idx, view, contiguous)
	}
	x.Data()[int(wv[0])] = old
	got.Data()[0] = old
}

func TestTapeIndex(t *testing.T) {
	cases := [][]nd.Index{
		{},
		{nd.I(1)},
		{nd.I(-1)},
		{nd.I(1), nd.I(2)},
		{nd.I(1), nd.I(2), nd.I(3)},
		{nd.Range(0, 1)},
		{nd.All(), nd.I(1)},
		{nd.Ellipsis(), nd.I(0)},
		{nd.RangeStep(0, 2, 2), nd.All(), nd.Step(-1)},
		{nd.NewAxis(), nd.I(0)},
		{nd.Ints(1, 0, 1)},
		{nd.All(), nd.Ints(2, 2)},
		{nd.Mask(false, true)},
		{nd.I(0), nd.Mask(true, false, true)},
		{nd.Ints(0, 1), nd.Ints(2, 0)},
		{nd.Range(1, 1)},
		{nd.From(1)},
		{nd.To(1), nd.Range(1, 3)},
	}
	for _, tp := range []*tensor.Tape{nil, new(tensor.Tape)} {
		x := seq(2, 3, 4)
		for _, idx := range cases {
			checkIndex(t, tp, x, idx)
		}
		checkIndex(t, tp, seq(), nil)
		checkIndex(t, tp, seq(5), []nd.Index{nd.Step(2)})
		checkIndex(t, tp, seq(0, 3), []nd.Index{nd.All(), nd.I(1)})
		checkIndex(t, tp, seq(3, 0), []nd.Index{nd.I(1)})
		// One entry that is not a row selection: a mask of two dimensions.
		mask, _ := nd.FromSlice([]bool{true, false, true, false, false, true}, 2, 3)
		checkIndex(t, tp, x, []nd.Index{nd.MaskArray(mask)})
		rows, _ := nd.FromSlice([]int64{1, 0, 1, 1}, 2, 2)
		checkIndex(t, tp, x, []nd.Index{nd.IntArray(rows)})
	}
}

func TestTapeIndexPanics(t *testing.T) {
	x := seq(2, 3)
	for _, idx := range [][]nd.Index{{nd.I(2)}, {nd.I(0), nd.I(0), nd.I(0)}, {nd.Mask(true)}, {nd.Ints(0, 5)}} {
		func() {
			defer func() {
				var e *nd.Error
				if err, _ := recover().(error); !errors.As(err, &e) || !errors.Is(err, nd.ErrIndex) {
					t.Errorf("Index%v: panic %v, want nd's ErrIndex", idx, err)
				}
			}()
			(*tensor.Tape)(nil).Index(x, idx...)
		}()
	}
}

func TestTapeIndexGradients(t *testing.T) {
	cases := []struct {
		name string
		idx  []nd.Index
	}{
		{"view", []nd.Index{nd.I(1)}},
		{"strided copy", []nd.Index{nd.All(), nd.I(1)}},
		{"repeated rows", []nd.Index{nd.Ints(1, 0, 1)}},
		{"mask", []nd.Index{nd.Mask(true, false), nd.RangeStep(0, 3, 2)}},
	}
	for _, c := range cases {
		x := tensor.New(2, 3)
		x.FillUniform(rand.New(rand.NewPCG(1, 2)), -1, 1)
		f := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
			return tp.Mul(tp.Index(in[0], c.idx...), tp.Index(in[0], c.idx...))
		}
		if err := tensortest.CheckGrad(f, []*tensor.Tensor{x}, tensortest.Config{}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func FuzzTapeIndex(f *testing.F) {
	for _, s := range []string{"1", "-1, 2", ":, 1", "..., ::-1", "None, 0", "[1, 0], :, [3, 3]", "[True, False]", "1:2, ::2, 1:", "0, 0, 0"} {
		f.Add(s)
	}
	x := seq(2, 3, 4)
	f.Fuzz(func(t *testing.T, s string) {
		idx, err := ndtest.ParseIndex(s)
		if err != nil {
			t.Skip()
		}
		ref, _ := nd.FromSlice(append([]float32{}, x.Data()...), 2, 3, 4)
		fits := func() (ok bool) {
			defer func() { ok = recover() == nil }()
			ref.Index(idx...)
			return true
		}
		if !fits() {
			t.Skip()
		}
		checkIndex(t, new(tensor.Tape), x, idx)
	})
}

func TestLeafIndexRecordsOnTape(t *testing.T) {
	// A tape result indexed as a Batch leaf stays on its tape: the gradient
	// flows back through the index and the result goes stale with the tape.
	w := seq(2, 3).SetRequiresGrad(true)
	tp := new(tensor.Tape)
	y := tp.MulScalar(w, 2)
	row := y.Index(nd.I(1)).(*tensor.Tensor)
	tp.Backward(tp.Sum(row))
	if got := fmt.Sprint(w.Grad()); got != "[0 0 0 2 2 2]" {
		t.Errorf("gradient through Index: %s, want [0 0 0 2 2 2]", got)
	}
	tp.Reset()
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, tensor.ErrStale) {
			t.Errorf("Index of a stale tensor: panic %v, want ErrStale", err)
		}
	}()
	y.Index(nd.I(0))
}

func TestLeafStackCat(t *testing.T) {
	a, b := seq(2, 2), tensor.MustFromSlice([]float32{4, 5, 6, 7}, 2, 2)
	cases := []struct {
		name  string
		join  func() (batch.Leaf, error)
		shape string
		data  string
	}{
		{"stack 0", func() (batch.Leaf, error) { return a.Stack(0, b) }, "[2 2 2]", "[0 1 2 3 4 5 6 7]"},
		{"stack -1", func() (batch.Leaf, error) { return a.Stack(-1, b) }, "[2 2 2]", "[0 4 1 5 2 6 3 7]"},
		{"stack alone", func() (batch.Leaf, error) { return tensor.New().Stack(0) }, "[1]", "[0]"},
		{"cat", func() (batch.Leaf, error) { return a.Cat(b, a) }, "[6 2]", "[0 1 2 3 4 5 6 7 0 1 2 3]"},
	}
	for _, c := range cases {
		l, err := c.join()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		x := l.(*tensor.Tensor)
		if fmt.Sprint(x.Shape()) != c.shape || fmt.Sprint(x.Data()) != c.data {
			t.Errorf("%s: %v %v, want %s %s", c.name, x.Shape(), x.Data(), c.shape, c.data)
		}
	}

	other := tensor.New(3)
	tp1, tp2 := new(tensor.Tape), new(tensor.Tape)
	p := tensor.New(2).SetRequiresGrad(true)
	errs := []struct {
		name string
		join func() (batch.Leaf, error)
		kind error
	}{
		{"stack shapes", func() (batch.Leaf, error) { return a.Stack(0, other) }, tensor.ErrShape},
		{"stack axis", func() (batch.Leaf, error) { return a.Stack(3, b) }, tensor.ErrShape},
		{"stack kind", func() (batch.Leaf, error) { return a.Stack(0, otherLeaf{}) }, tensor.ErrShape},
		{"cat shapes", func() (batch.Leaf, error) { return a.Cat(other) }, tensor.ErrShape},
		{"cat scalar", func() (batch.Leaf, error) { return tensor.New().Cat(tensor.New()) }, tensor.ErrShape},
		{"cat tapes", func() (batch.Leaf, error) { return tp1.Neg(p).Cat(tp2.Neg(p)) }, tensor.ErrGrad},
	}
	for _, c := range errs {
		if _, err := c.join(); !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.kind)
		}
	}

	// Joined tape results requiring gradients stay on their tape.
	tp := new(tensor.Tape)
	y := tp.MulScalar(p, 3)
	l, err := y.Stack(0, y, tensor.New(2))
	if err != nil {
		t.Fatal(err)
	}
	tp.Backward(tp.Sum(l.(*tensor.Tensor)))
	if got := fmt.Sprint(p.Grad()); got != "[6 6]" {
		t.Errorf("gradient through Stack: %s, want [6 6]", got)
	}
}

type otherLeaf struct{ batch.Leaf }

func TestLeafEqual(t *testing.T) {
	nan := float32(0)
	nan /= nan
	a := tensor.MustFromSlice([]float32{1, nan}, 2)
	cases := []struct {
		other batch.Leaf
		want  bool
	}{
		{tensor.MustFromSlice([]float32{1, nan}, 2), true},
		{tensor.MustFromSlice([]float32{1, 2}, 2), false},
		{tensor.MustFromSlice([]float32{1, nan}, 1, 2), false},
		{otherLeaf{}, false},
	}
	for i, c := range cases {
		if got := a.Equal(c.other); got != c.want {
			t.Errorf("case %d: Equal %v, want %v", i, got, c.want)
		}
	}
}

func TestTensorInBatch(t *testing.T) {
	act := tensor.MustFromSlice([]float32{0, 1, 2, 3, 4, 5}, 3, 2)
	b := batch.MustNew("act", act, "rew", []float64{1, 2, 3})
	if n, err := b.Len(); err != nil || n != 3 {
		t.Errorf("Len = %d, %v; want 3", n, err)
	}
	got, _ := b.Index(nd.Range(1, 3)).Get("act")
	if x := got.(*tensor.Tensor); fmt.Sprint(x.Data()) != "[2 3 4 5]" {
		t.Errorf("b[1:3].act = %v", x.Data())
	}
	got, _ = batch.Take(b, []int{2, 0}).Get("act")
	if x := got.(*tensor.Tensor); fmt.Sprint(x.Data()) != "[4 5 0 1]" {
		t.Errorf("Take(b, [2 0]).act = %v", x.Data())
	}
	s, err := batch.Stack(0, b, b)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = s.Get("act")
	if x := got.(*tensor.Tensor); fmt.Sprint(x.Shape()) != "[2 3 2]" {
		t.Errorf("Stack(b, b).act has shape %v", x.Shape())
	}
	c, err := batch.Cat(b, b)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Len(); n != 6 {
		t.Errorf("Cat(b, b) has length %d", n)
	}
	if !batch.Equal(b, b.Clone()) || batch.Equal(b, batch.MustNew("act", tensor.New(3, 2), "rew", []float64{1, 2, 3})) {
		t.Error("batch.Equal does not compare tensor leaves by value")
	}
}

func ExampleTensor_Index() {
	// A Batch indexes a tensor leaf like its arrays: data[-1] takes the
	// last row of each, and both rows are views of the stored data.
	act, err := tensor.FromSlice([]float32{0, 1, 2, 3}, 2, 2)
	if err != nil {
		panic(err)
	}
	obs, err := nd.FromSlice([]float64{0, 1, 2, 3, 4, 5}, 2, 3)
	if err != nil {
		panic(err)
	}
	data := batch.MustNew("obs", obs, "act", act)
	last := data.Index(nd.I(-1))
	fmt.Println(last)
	v, _ := last.Get("act")
	fmt.Println("view of the tensor:", &v.(*tensor.Tensor).Data()[0] == &act.Data()[2])
	// Output:
	// Batch(
	//     obs: array([3., 4., 5.]),
	//     act: [2 3],
	// )
	// view of the tensor: true
}

var indexSink *tensor.Tensor

// BenchmarkTapeIndex gathers a minibatch of 64 rows from 1024 rows of 64
// features (what batch.Take does to a tensor leaf), and takes one row (a
// view, what iterating a Batch does).
func BenchmarkTapeIndex(b *testing.B) {
	x := seq(1024, 64)
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]int, 64)
	for i := range rows {
		rows[i] = rng.IntN(1024)
	}
	for _, bc := range []struct {
		name string
		idx  []nd.Index
	}{{"Rows64of1024x64", []nd.Index{nd.Ints(rows...)}}, {"Row", []nd.Index{nd.I(7)}}} {
		b.Run(bc.name, func(b *testing.B) {
			tp := new(tensor.Tape)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				tp.Reset()
				indexSink = tp.Index(x, bc.idx...)
			}
		})
	}
}
