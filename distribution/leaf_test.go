package distribution_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

func probsOf(l batch.Leaf) string {
	p := l.(*distribution.Categorical).Probs()
	return fmt.Sprint(p.Shape(), p.Data())
}

func TestLeafIndex(t *testing.T) {
	var c distribution.Categorical
	mustOK(t, c.SetProbs(nil, leaf([]int{3, 2}, 0.25, 0.75, 0.5, 0.5, 1, 0)))
	cases := []struct {
		idx  []nd.Index
		want string
	}{
		// Expected: numpy's probs[idx] on the rows (seed 001 §5 slices
		// batch[0:2]).
		{[]nd.Index{nd.Range(0, 2)}, "[2 2] [0.25 0.75 0.5 0.5]"},
		{[]nd.Index{nd.I(1)}, "[2] [0.5 0.5]"},
		{[]nd.Index{nd.I(-1)}, "[2] [1 0]"},
		{[]nd.Index{nd.Ints(2, 0, 2)}, "[3 2] [1 0 0.25 0.75 1 0]"},
		{[]nd.Index{nd.Mask(false, true, true)}, "[2 2] [0.5 0.5 1 0]"},
		{[]nd.Index{nd.Step(-2)}, "[2 2] [1 0 0.25 0.75]"},
		{[]nd.Index{nd.NewAxis()}, "[1 3 2] [0.25 0.75 0.5 0.5 1 0]"},
		{[]nd.Index{nd.Ellipsis(), nd.I(0)}, "[2] [0.25 0.75]"},
	}
	for _, cs := range cases {
		if got := probsOf(c.Index(cs.idx...)); got != cs.want {
			t.Errorf("Categorical%v: probs %s, want %s", cs.idx, got, cs.want)
		}
	}
	for _, idx := range [][]nd.Index{{nd.I(3)}, {nd.I(0), nd.I(0)}} {
		func() {
			defer func() {
				if err, _ := recover().(error); !errors.Is(err, nd.ErrIndex) {
					t.Errorf("Categorical%v: panic %v, want nd's ErrIndex", idx, err)
				}
			}()
			c.Index(idx...)
		}()
	}

	// An Independent over a Normal [2, 3, 4] with k = 1 has batch shape
	// [2, 3]: d[..., 0] selects loc[:, 0, :], the Ellipsis staying on the
	// batch axes.
	loc := tensor.New(2, 3, 4)
	for i := range loc.Data() {
		loc.Data()[i] = float32(i)
	}
	scale := tensor.New(2, 3, 4)
	scale.Fill(1)
	var n distribution.Normal
	mustOK(t, n.Set(nil, loc, scale))
	var d distribution.Independent
	d.Set(nil, &n, 1)
	r := d.Index(nd.Ellipsis(), nd.I(0)).(*distribution.Independent)
	got := r.Base().(*distribution.Normal).Loc()
	if fmt.Sprint(r.BatchShape(), r.EventShape(), got.Data()) != "[2] [4] [0 1 2 3 12 13 14 15]" {
		t.Errorf("Independent[..., 0]: batch %v event %v loc %v", r.BatchShape(), r.EventShape(), got.Data())
	}

	var th distribution.TanhNormal
	mustOK(t, th.Set(nil, leaf([]int{3}, 0, 1, 2), leaf([]int{3}, 1, 2, 3)))
	ti := th.Index(nd.Ints(2, 1)).(*distribution.TanhNormal)
	if fmt.Sprint(ti.Loc().Data(), ti.Scale().Data()) != "[2 1] [3 2]" {
		t.Errorf("TanhNormal[[2, 1]]: loc %v scale %v", ti.Loc().Data(), ti.Scale().Data())
	}
}

func TestLeafStackCat(t *testing.T) {
	var a, b distribution.Categorical
	mustOK(t, a.SetProbs(nil, leaf([]int{2, 2}, 0.25, 0.75, 0.5, 0.5)))
	mustOK(t, b.SetProbs(nil, leaf([]int{2, 2}, 1, 0, 0, 1)))
	var l1, l2 distribution.Categorical
	mustOK(t, l1.SetLogits(nil, leaf([]int{2}, 0, 0)))
	mustOK(t, l2.SetLogits(nil, tensor.New(2)))
	joins := []struct {
		name string
		join func() (batch.Leaf, error)
		want string
	}{
		{"Stack 0", func() (batch.Leaf, error) { return a.Stack(0, &b) }, "[2 2 2] [0.25 0.75 0.5 0.5 1 0 0 1]"},
		{"Stack -1", func() (batch.Leaf, error) { return a.Stack(-1, &b) }, "[2 2 2] [0.25 0.75 1 0 0.5 0.5 0 1]"},
		{"Cat", func() (batch.Leaf, error) { return a.Cat(&b, &a) }, "[6 2] [0.25 0.75 0.5 0.5 1 0 0 1 0.25 0.75 0.5 0.5]"},
		{"Stack alone (ToAtLeast2D)", func() (batch.Leaf, error) { return l1.Stack(0) }, "[1 2] [0.5 0.5]"},
		{"Stack logits with probs", func() (batch.Leaf, error) { return l1.Stack(0, &l2) }, "[2 2] [0.5 0.5 0.5 0.5]"},
	}
	for _, j := range joins {
		r, err := j.join()
		if err != nil {
			t.Errorf("%s: %v", j.name, err)
			continue
		}
		if got := probsOf(r); got != j.want {
			t.Errorf("%s: probs %s, want %s", j.name, got, j.want)
		}
	}

	var n1, n2 distribution.Normal
	mustOK(t, n1.Set(nil, leaf([]int{2}, 0, 1), leaf([]int{2}, 1, 2)))
	mustOK(t, n2.Set(nil, leaf([]int{2}, 5, 6), leaf([]int{2}, 3, 4)))
	r, err := n1.Cat(&n2)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.(*distribution.Normal); fmt.Sprint(n.Loc().Data(), n.Scale().Data()) != "[0 1 5 6] [1 2 3 4]" {
		t.Errorf("Normal Cat: loc %v scale %v", n.Loc().Data(), n.Scale().Data())
	}
	var i1, i2, i0 distribution.Independent
	i1.Set(nil, &n1, 1)
	i2.Set(nil, &n2, 1)
	i0.Set(nil, &n2, 0)
	r, err = i1.Stack(0, &i2)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.(*distribution.Independent); fmt.Sprint(d.BatchShape(), d.EventShape()) != "[2] [2]" {
		t.Errorf("Independent Stack: batch %v event %v", d.BatchShape(), d.EventShape())
	}

	var th1, th2 distribution.TanhNormal
	mustOK(t, th1.Set(nil, leaf([]int{1}, 0), leaf([]int{1}, 1)))
	mustOK(t, th2.Set(nil, leaf([]int{1}, 2), leaf([]int{1}, 3)))
	r, err = th1.Stack(1, &th2)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.(*distribution.TanhNormal); fmt.Sprint(d.Loc().Shape(), d.Loc().Data(), d.Scale().Data()) != "[1 2] [0 2] [1 3]" {
		t.Errorf("TanhNormal Stack(1): loc %v %v scale %v", d.Loc().Shape(), d.Loc().Data(), d.Scale().Data())
	}

	var three distribution.Categorical
	mustOK(t, three.SetProbs(nil, leaf([]int{2, 3}, 1, 1, 1, 1, 1, 1)))
	var scalar distribution.Categorical
	mustOK(t, scalar.SetProbs(nil, leaf([]int{2}, 1, 1)))
	p := leaf([]int{2, 2}, 1, 2, 3, 4).SetRequiresGrad(true)
	tp1, tp2 := new(tensor.Tape), new(tensor.Tape)
	var g1, g2 distribution.Categorical
	mustOK(t, g1.SetLogits(tp1, p))
	mustOK(t, g2.SetLogits(tp2, p))
	errs := []struct {
		name string
		join func() (batch.Leaf, error)
		kind error
	}{
		{"other kind", func() (batch.Leaf, error) { return a.Stack(0, &n1) }, distribution.ErrKind},
		{"other categories", func() (batch.Leaf, error) { return a.Cat(&three) }, distribution.ErrShape},
		{"other batch shape", func() (batch.Leaf, error) { return a.Stack(0, &scalar) }, distribution.ErrShape},
		{"axis out of range", func() (batch.Leaf, error) { return a.Stack(2, &b) }, distribution.ErrShape},
		{"Cat without batch axis", func() (batch.Leaf, error) { return scalar.Cat(&scalar) }, distribution.ErrShape},
		{"tapes", func() (batch.Leaf, error) { return g1.Cat(&g2) }, distribution.ErrKind},
		{"Normal shapes", func() (batch.Leaf, error) { return n1.Stack(0, n1.Index(nd.I(0))) }, distribution.ErrShape},
		{"Independent k", func() (batch.Leaf, error) { return i1.Stack(0, &i0) }, distribution.ErrKind},
		{"Independent Cat without batch axis", func() (batch.Leaf, error) { return i1.Cat(&i2) }, distribution.ErrShape},
		{"TanhNormal kind", func() (batch.Leaf, error) { return th1.Cat(&n1) }, distribution.ErrKind},
	}
	for _, e := range errs {
		if _, err := e.join(); !errors.Is(err, e.kind) {
			t.Errorf("%s: error %v, want %v", e.name, err, e.kind)
		}
	}
}

func TestLeafGradients(t *testing.T) {
	// Indexing and joining record on the tape: the gradient of a loss on
	// the result reaches only the parameter rows it used.
	logits := leaf([]int{3, 2}, 0, 0, 1, 2, 3, 1).SetRequiresGrad(true)
	tp := new(tensor.Tape)
	var d distribution.Categorical
	mustOK(t, d.SetLogits(tp, logits))
	r := d.Index(nd.Ints(2, 0)).(*distribution.Categorical)
	s, err := r.Stack(0, d.Index(nd.I(1)).(*distribution.Categorical).Index(nd.NewAxis()).(*distribution.Categorical).Index(nd.Ints(0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	j := s.(*distribution.Categorical)
	if fmt.Sprint(j.BatchShape()) != "[2 2]" {
		t.Fatalf("batch shape %v", j.BatchShape())
	}
	tp.Backward(tp.Sum(j.LogProb(leaf([]int{2, 2}, 0, 1, 1, 1))))
	// d/dlogits of log softmax(x)[k] is onehot(k) − softmax(x), summed
	// over the uses of each row: row 2 as category 0, row 0 as category 1,
	// row 1 twice as category 1.
	sm := func(a, b float64) [2]float64 {
		e := [2]float64{1 / (1 + math.Exp(b-a)), 1 / (1 + math.Exp(a-b))}
		return e
	}
	p0, p1, p2 := sm(0, 0), sm(1, 2), sm(3, 1)
	want := []float64{-p0[0], 1 - p0[1], 2 * -p1[0], 2 * (1 - p1[1]), 1 - p2[0], -p2[1]}
	checkValues(t, "gradient", tensor.MustFromSlice(logits.Grad(), 3, 2), []int{3, 2}, want, 1e-6)
}

func TestLeafEqualString(t *testing.T) {
	var a, b, c distribution.Categorical
	mustOK(t, a.SetProbs(nil, leaf([]int{2}, 0.25, 0.75)))
	mustOK(t, b.SetProbs(nil, leaf([]int{2}, 1, 3)))
	mustOK(t, c.SetLogits(nil, leaf([]int{2}, 0, 0)))
	var n, m distribution.Normal
	mustOK(t, n.Set(nil, leaf([]int{2}, 0, 1), leaf([]int{2}, 1, 1)))
	mustOK(t, m.Set(nil, leaf([]int{2}, 0, 1), leaf([]int{1}, 1)))
	var th distribution.TanhNormal
	mustOK(t, th.Set(nil, leaf([]int{2}, 0, 1), leaf([]int{2}, 1, 1)))
	var i1, i2 distribution.Independent
	i1.Set(nil, &n, 1)
	i2.Set(nil, &m, 1)
	eq := []struct {
		name string
		got  bool
		want bool
	}{
		{"same probabilities", a.Equal(&b), true},
		{"other probabilities", a.Equal(&c), false},
		{"Categorical and Normal", a.Equal(&n), false},
		{"broadcast scale", n.Equal(&m), true},
		{"Normal and TanhNormal", n.Equal(&th), false},
		{"Independent", i1.Equal(&i2), true},
		{"TanhNormal", th.Equal(&th), true},
	}
	for _, e := range eq {
		if e.got != e.want {
			t.Errorf("%s: Equal %v, want %v", e.name, e.got, e.want)
		}
	}
	for _, s := range []struct{ got, want string }{
		{a.String(), "Categorical(probs: [2])"},
		{c.String(), "Categorical(logits: [2])"},
		{i2.String(), "Independent(Normal(loc: [2], scale: [2]), 1)"},
		{th.String(), "TanhNormal(loc: [2], scale: [2])"},
	} {
		if s.got != s.want {
			t.Errorf("String %q, want %q", s.got, s.want)
		}
	}
}

func TestInBatch(t *testing.T) {
	var c distribution.Categorical
	mustOK(t, c.SetProbs(nil, leaf([]int{3, 2}, 0.3, 0.7, 0.4, 0.6, 0.5, 0.5)))
	b := batch.MustNew("dist", &c, "values", []int{1, 2, 3})
	took := batch.Take(b, []int{2, 2, 0})
	v, _ := took.Get("dist")
	if got := probsOf(v.(batch.Leaf)); got != "[3 2] [0.5 0.5 0.5 0.5 0.3 0.7]" {
		t.Errorf("Take: probs %s", got)
	}
	s, err := batch.Stack(0, b, b)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get("dist"); fmt.Sprint(v.(distribution.Distribution).BatchShape()) != "[2 3]" {
		t.Errorf("Stack: batch shape %v", v.(distribution.Distribution).BatchShape())
	}
	cat, err := batch.Cat(b, b)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := cat.Len(); n != 6 {
		t.Errorf("Cat: length %d, want 6", n)
	}
	pieces, err := b.Split(2, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for p := range pieces {
		v, _ := p.Get("dist")
		parts = append(parts, probsOf(v.(batch.Leaf)))
	}
	if fmt.Sprint(parts) != "[[2 2] [0.3 0.7 0.4 0.6] [1 2] [0.5 0.5]]" {
		t.Errorf("Split: %v", parts)
	}
	if !batch.Equal(b, b.Clone()) {
		t.Error("a Batch holding a distribution differs from its clone")
	}
	want := "Batch(\n    dist: Categorical(probs: [3 2]),\n    values: array([1, 2, 3]),\n)"
	if b.String() != want {
		t.Errorf("String:\n%s\nwant\n%s", b, want)
	}
}
