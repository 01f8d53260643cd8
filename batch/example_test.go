package batch_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/batch/batchtest"
	"github.com/gorl/gorl/nd"
)

// The examples reproduce the Batch snippets of the seeds, each named after
// its section. Where the seeds disagree the newer one's values are shown
// (numbers are 0-d arrays, printed array(4) rather than 4).

// Seed 001 §2: a nested map becomes a nested Batch (Go maps have no order:
// FromMap sorts the keys).
func Example() {
	data, err := batch.FromMap(map[string]any{
		"action": []float64{1, 2, 3},
		"reward": 3.66,
		"obs": map[string]any{
			"camera":  nd.Zeros(nd.Float64, 3, 3),
			"sensory": []float64{1, 1, 1, 1, 1},
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(data)
	camera, _ := data.Array("obs.camera")
	sensory, _ := data.Array("obs.sensory")
	fmt.Println("obs.camera shape:", camera.Shape())
	fmt.Println("obs.sensory:", sensory.Str())
	// Output:
	// Batch(
	//     action: array([1., 2., 3.]),
	//     obs: Batch(
	//              camera: array([[0., 0., 0.],
	//                             [0., 0., 0.],
	//                             [0., 0., 0.]]),
	//              sensory: array([1., 1., 1., 1., 1.]),
	//          ),
	//     reward: array(3.66),
	// )
	// obs.camera shape: [3 3]
	// obs.sensory: [1. 1. 1. 1. 1.]
}

// Seed 001 §3.1: construction from key/value pairs, a map, a list of maps
// (stacked) and nested Batches.
func ExampleNew() {
	b1 := batch.MustNew("a", 4, "b", []int{5, 5}, "c", "hello")
	fmt.Println("From pairs:", b1)
	b2, _ := batch.FromMap(map[string]any{"a": 4, "b": []int{5, 5}, "c": "hello"})
	fmt.Println("From map:", b2)
	b3, _ := batch.FromRows(map[string]any{"a": 1, "b": 2}, map[string]any{"a": 3, "b": 4})
	fmt.Println("From rows:", b3)
	b4 := batch.MustNew("obs", batch.MustNew("x", 1, "y", 2), "act", 5)
	fmt.Println("Nested:", b4)
	// Output:
	// From pairs: Batch(
	//     a: array(4),
	//     b: array([5, 5]),
	//     c: 'hello',
	// )
	// From map: Batch(
	//     a: array(4),
	//     b: array([5, 5]),
	//     c: 'hello',
	// )
	// From rows: Batch(
	//     a: array([1, 3]),
	//     b: array([2, 4]),
	// )
	// Nested: Batch(
	//     obs: Batch(
	//              x: array(1),
	//              y: array(2),
	//          ),
	//     act: array(5),
	// )
}

// Seed 001 §3.2: the automatic conversions.
func ExampleNew_conversions() {
	b := &batch.Batch{}
	b.Set("key1", "value")
	b.Set("key2", []int{1, 2, 3})
	fmt.Println("Keys:", keysOf(b))

	demo := batch.MustNew(
		"scalar_int", 5,
		"scalar_float", 3.14,
		"list_nums", []int{1, 2, 3},
		"list_mixed", []any{1, "hello", nil},
		"dict_val", map[string]any{"x": 1, "y": 2},
	)
	si, _ := demo.Array("scalar_int")
	ln, _ := demo.Array("list_nums")
	lm, _ := demo.Array("list_mixed")
	dv, _ := demo.Get("dict_val")
	fmt.Printf("scalar_int: %T %v, value %s\n", si, si.Ndim(), si.Str())
	fmt.Println("list_nums dtype:", ln.DType())
	fmt.Println("list_mixed dtype:", lm.DType(), lm.Str())
	fmt.Printf("dict_val type: %T\n", dv)
	// Output:
	// Keys: [key1 key2]
	// scalar_int: *nd.Array 0, value 5
	// list_nums dtype: int64
	// list_mixed dtype: object [1 'hello' None]
	// dict_val type: *batch.Batch
}

// Seed 000 "Construction of Batch" and seed 002/003's first snippet.
func ExampleNew_seed000() {
	data, _ := batch.FromMap(map[string]any{"a": 4, "b": []int{5, 5}, "c": "2312312"})
	b, _ := data.Array("b")
	fmt.Println(b)
	data.Set("b", []int{3, 4, 5})
	fmt.Println(data)
	// A list of maps is stacked; strings go into an object array.
	rows, _ := batch.FromRows(map[string]any{"a": 0.0, "b": "hello"}, map[string]any{"a": 1.0, "b": "world"})
	fmt.Println(rows)
	// Seed 002: a mixed tuple keeps its element types (seed 001's rule).
	d := batch.MustNew("d", []any{"a", -2, -3})
	fmt.Println(d)
	// Seed 003: a list of one nested map.
	one, _ := batch.FromRows(map[string]any{"a": map[string]any{"b": []any{0.0, "info"}}})
	fmt.Println(one.Index(nd.I(0)))
	// Output:
	// array([5, 5])
	// Batch(
	//     a: array(4),
	//     b: array([3, 4, 5]),
	//     c: '2312312',
	// )
	// Batch(
	//     a: array([0., 1.]),
	//     b: array(['hello', 'world'], dtype=object),
	// )
	// Batch(
	//     d: array(['a', -2, -3], dtype=object),
	// )
	// Batch(
	//     a: Batch(
	//            b: array([0.0, 'info'], dtype=object),
	//        ),
	// )
}

// Seed 000: keyword arguments, combining a map with more keys, and copy.
func ExampleNewCopy() {
	data := batch.MustNew("a", []int{4, 4}, "b", []int{5, 5}, "c", []any{nil, nil})
	fmt.Println(data)
	combined, _ := batch.FromMap(map[string]any{"a": []int{4, 4}, "b": []int{5, 5}})
	combined.Update("c", []any{nil, nil})
	fmt.Println(batch.Equal(data, combined))

	// Seed 001 §8 "Be mindful of copies".
	arr := nd.MustNew([]int{1, 2, 3})
	b1 := batch.MustNew("a", arr)
	a1, _ := b1.Array("a")
	a1.SetIndex(999, nd.I(0))
	fmt.Println("Original array modified:", arr.Str())
	arr2 := nd.MustNew([]int{1, 2, 3})
	b2, _ := batch.NewCopy("a", arr2)
	a2, _ := b2.Array("a")
	a2.SetIndex(999, nd.I(0))
	fmt.Println("Original array preserved:", arr2.Str())
	// Output:
	// Batch(
	//     a: array([4, 4]),
	//     b: array([5, 5]),
	//     c: array([None, None], dtype=object),
	// )
	// true
	// Original array modified: [999   2   3]
	// Original array preserved: [1 2 3]
}

// Seed 000 "Data Manipulation" and seed 001 §3.3: access, items, keys,
// update.
func ExampleBatch_Items() {
	data := batch.MustNew("a", 4, "b", []int{5, 5})
	b, _ := data.Array("b")
	fmt.Println(b.Str())
	a, _ := data.Get("a")
	fmt.Println(a.(*nd.Array).Str())
	for key, value := range data.Items() {
		fmt.Printf("%s: %s\n", key, value.(*nd.Array).Str())
	}
	for key := range data.Keys() {
		fmt.Println(key)
	}
	data.Update("c", 1, "d", 2, "e", 3)
	fmt.Println(data)
	// Output:
	// [5 5]
	// 4
	// a: 4
	// b: [5 5]
	// a
	// b
	// Batch(
	//     a: array(4),
	//     b: array([5, 5]),
	//     c: array(1),
	//     d: array(2),
	//     e: array(3),
	// )
}

// Seed 001 §3.3 and §7: iterating a Batch walks rows, not keys.
func ExampleBatch_Rows() {
	b := batch.MustNew("a", []int{1, 2, 3}, "b", []int{4, 5, 6})
	rows, err := b.Rows()
	if err != nil {
		panic(err)
	}
	i := 0
	for row := range rows {
		fmt.Printf("batch[%d] = %v\n", i, row)
		i++
	}
	for key, value := range b.Items() {
		fmt.Printf("%s = %s\n", key, value.(*nd.Array).Str())
	}
	// Output:
	// batch[0] = Batch(
	//     a: array(1),
	//     b: array(4),
	// )
	// batch[1] = Batch(
	//     a: array(2),
	//     b: array(5),
	// )
	// batch[2] = Batch(
	//     a: array(3),
	//     b: array(6),
	// )
	// a = [1 2 3]
	// b = [4 5 6]
}

// Seed 001 §3.4: indexing and slicing, and assignment through a view.
func ExampleBatch_Index() {
	b := batch.MustNew("a", nd.MustNew([][]float64{{0, 2}, {1, 3}}), "b", [][]float64{{5, -5}, {1, -2}})
	n, _ := b.Len()
	fmt.Println("shape:", b.Shape(), "length:", n)
	fmt.Println("batch[0]:", b.Index(nd.I(0)))
	fmt.Println("batch[:1]:", b.Index(nd.To(1)))
	fmt.Println("batch[[0, 1]]:", b.Index(nd.Ints(0, 1)))
	fmt.Println("batch[:, 0]:", b.Index(nd.All(), nd.I(0)))
	// batch[:, 1] += 10: the view writes into b.
	if err := b.Index(nd.All(), nd.I(1)).Add(10); err != nil {
		panic(err)
	}
	fmt.Println(b)
	// Output:
	// shape: [2 2] length: 2
	// batch[0]: Batch(
	//     a: array([0., 2.]),
	//     b: array([ 5., -5.]),
	// )
	// batch[:1]: Batch(
	//     a: array([[0., 2.]]),
	//     b: array([[ 5., -5.]]),
	// )
	// batch[[0, 1]]: Batch(
	//     a: array([[0., 2.],
	//               [1., 3.]]),
	//     b: array([[ 5., -5.],
	//               [ 1., -2.]]),
	// )
	// batch[:, 0]: Batch(
	//     a: array([0., 1.]),
	//     b: array([5., 1.]),
	// )
	// Batch(
	//     a: array([[ 0., 12.],
	//               [ 1., 13.]]),
	//     b: array([[5., 5.],
	//               [1., 8.]]),
	// )
}

// Seed 000's indexing snippet: data[0], iteration, data[:, 1] += 1 and
// np.mean(data) (over each whole array; seed 003 takes it over axis 0).
// Seed 000's printout has typos (it shows one row of b and means of 1.5
// and -0.25, which its data does not give); the values below follow the
// data.
func ExampleMean() {
	data := batch.MustNew("a", nd.MustNew([][]float64{{0, 2}, {1, 3}}), "b", [][]int{{5, -5}, {1, -2}})
	fmt.Println(data.Index(nd.I(0)))
	rows, _ := data.Rows()
	for sample := range rows {
		a, _ := sample.Array("a")
		fmt.Println(a.Str())
	}
	data.Index(nd.All(), nd.I(1)).Add(1)
	fmt.Println(data)
	m, _ := batch.Mean(data)
	fmt.Println(m)
	m0, _ := batch.Mean(data, 0)
	fmt.Println(m0)
	// Output:
	// Batch(
	//     a: array([0., 2.]),
	//     b: array([ 5, -5]),
	// )
	// [0. 2.]
	// [1. 3.]
	// Batch(
	//     a: array([[0., 3.],
	//               [1., 4.]]),
	//     b: array([[ 5, -4],
	//               [ 1, -1]]),
	// )
	// Batch(
	//     a: array(2.),
	//     b: array(0.25),
	// )
	// Batch(
	//     a: array([0.5, 3.5]),
	//     b: array([ 3. , -2.5]),
	// )
}

// Seed 002: data[:, 1] += 6 changes the original through the view (the
// torch tensor of the seed is an array here).
func ExampleBatch_Add() {
	data := batch.MustNew("obs", map[string]any{"index": nd.Zeros(nd.Float64, 2, 3)}, "act", nd.Zeros(nd.Float64, 2, 2))
	data.Index(nd.All(), nd.I(1)).Add(6)
	fmt.Println(data.Index(nd.I(-1)))
	sum, _ := batch.Add(data, batch.MustNew("obs", batch.MustNew("index", 1.0), "act", []float64{10, 20}))
	fmt.Println(sum.Index(nd.I(0)))
	// Output:
	// Batch(
	//     obs: Batch(
	//              index: array([0., 6., 0.]),
	//          ),
	//     act: array([0., 6.]),
	// )
	// Batch(
	//     obs: Batch(
	//              index: array([1., 7., 1.]),
	//          ),
	//     act: array([10., 26.]),
	// )
}

// Seed 000 and 003: stack, split and cat of homogeneous batches.
func ExampleStack() {
	d1 := batch.MustNew("a", []float64{0, 2}, "b", 5)
	d2 := batch.MustNew("a", []float64{1, 3}, "b", -5)
	data, _ := batch.Stack(0, d1, d2)
	fmt.Println(data)
	pieces, _ := data.Split(1, false, nil)
	var split []*batch.Batch
	for p := range pieces {
		fmt.Println(p)
		split = append(split, p)
	}
	cat, _ := batch.Cat(split...)
	fmt.Println(batch.Equal(cat, data))
	// Seed 003: np.mean(data) over axis 0.
	m, _ := batch.Mean(data, 0)
	fmt.Println(m)
	// Output:
	// Batch(
	//     a: array([[0., 2.],
	//               [1., 3.]]),
	//     b: array([ 5, -5]),
	// )
	// Batch(
	//     a: array([[0., 2.]]),
	//     b: array([5]),
	// )
	// Batch(
	//     a: array([[1., 3.]]),
	//     b: array([-5]),
	// )
	// true
	// Batch(
	//     a: array([0.5, 2.5]),
	//     b: array(0.),
	// )
}

// Seed 001 §3.5: stack adds a dimension, cat extends one.
func ExampleCat() {
	b1 := batch.MustNew("a", []int{1, 2}, "b", []int{5, 6})
	b2 := batch.MustNew("a", []int{3, 4}, "b", []int{7, 8})
	stacked, _ := batch.Stack(0, b1, b2)
	fmt.Println("Stacked:", stacked)
	fmt.Println("Shape:", stacked.Shape())
	cat, _ := batch.Cat(b1, b2)
	fmt.Println("Concatenated:", cat)
	fmt.Println("Shape:", cat.Shape())
	// Output:
	// Stacked: Batch(
	//     a: array([[1, 2],
	//               [3, 4]]),
	//     b: array([[5, 6],
	//               [7, 8]]),
	// )
	// Shape: [2 2]
	// Concatenated: Batch(
	//     a: array([1, 2, 3, 4]),
	//     b: array([5, 6, 7, 8]),
	// )
	// Shape: [4]
}

// Seed 001 §3.5: split into pieces of 3, the last one shorter.
func ExampleBatch_Split() {
	b := batch.MustNew("a", nd.MustNew([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), "b", nd.MustNew([]int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}))
	pieces, _ := b.Split(3, false, nil)
	i := 0
	for p := range pieces {
		a, _ := p.Array("a")
		n, _ := p.Len()
		fmt.Printf("Split %d: a=%s, length=%d\n", i, a.Str(), n)
		i++
	}
	// Seed 001 §8 pattern 2: shuffled mini-batches (the seed fixes the order).
	large := batchtest.Flat(100, rand.New(rand.NewPCG(1, 2)))
	mini, _ := large.Split(32, true, rand.New(rand.NewPCG(3, 4)))
	for m := range mini {
		n, _ := m.Len()
		fmt.Println("Mini-batch size:", n)
		break
	}
	// Output:
	// Split 0: a=[0 1 2], length=3
	// Split 1: a=[3 4 5], length=3
	// Split 2: a=[6 7 8], length=3
	// Split 3: a=[9], length=1
	// Mini-batch size: 32
}

// Seed 000 "Aggregation of Heterogeneous Batches" and seed 001 §6.4, §7:
// missing keys are padded with zeros (None for object arrays); Cat needs
// the same structure.
func ExampleStack_heterogeneous() {
	a := batch.MustNew("a", nd.Zeros(nd.Float64, 4, 4), "common", batch.MustNew("c", nd.Zeros(nd.Float64, 4, 5)))
	b := batch.MustNew("b", nd.Zeros(nd.Float64, 4, 6), "common", batch.MustNew("c", nd.Zeros(nd.Float64, 4, 5)))
	c, _ := batch.Stack(0, a, b)
	for _, key := range []string{"a", "b", "common.c"} {
		x, _ := c.Array(key)
		fmt.Println(key, x.Shape())
	}
	d1 := batch.MustNew("a", []float64{0, 2})
	d2 := batch.MustNew("a", []float64{1, 3}, "b", "done")
	data, _ := batch.Stack(0, d1, d2)
	fmt.Println(data)

	batchA := batch.MustNew("a", nd.MustNew([][]float64{{1, 1, 1}, {1, 1, 1}}), "shared", []int{1, 2})
	batchB := batch.MustNew("b", nd.Zeros(nd.Float64, 2, 4), "shared", []int{3, 4})
	stacked, _ := batch.Stack(0, batchA, batchB)
	for _, key := range []string{"a", "b", "shared"} {
		x, _ := stacked.Array(key)
		fmt.Println(key, x.Shape())
	}
	sa, _ := stacked.Array("a")
	fmt.Println(sa.Index(nd.I(1)))
	sh, _ := stacked.Array("shared")
	fmt.Println(sh)

	_, err := batch.Stack(0, batch.MustNew("a", nd.Zeros(nd.Float64, 4, 4)), batch.MustNew("a", batch.MustNew("b", batch.MustNew())))
	fmt.Println(err)
	_, err = batch.Cat(batch.MustNew("a", []int{1, 2}), batch.MustNew("b", []int{3, 4}))
	fmt.Println(err)
	_, err = batch.Stack(1, batch.MustNew("a", []int{1, 2}), batch.MustNew("b", []int{3, 4}))
	fmt.Println(err)
	// Output:
	// a [2 4 4]
	// b [2 4 6]
	// common.c [2 4 5]
	// Batch(
	//     a: array([[0., 2.],
	//               [1., 3.]]),
	//     b: array([None, 'done'], dtype=object),
	// )
	// a [2 2 3]
	// b [2 2 4]
	// shared [2 2]
	// array([[0., 0., 0.],
	//        [0., 0., 0.]])
	// array([[1, 2],
	//        [3, 4]])
	// batch: key a: cannot stack a float64 array of shape [4 4] with a Batch
	// batch: key a: key of batch 0 missing from batch 1: Cat needs the same structure
	// batch: key a: the key is not shared by all batches, which Stack allows only along axis 0, not axis 1
}

// Seed 001 §7 "Cat vs Stack": Stack pads, Cat needs the same keys; seed
// 001 §8 pattern 3: Cat in place extends a batch.
func ExampleBatch_Cat() {
	stacked, _ := batch.Stack(0, batch.MustNew("a", []int{1, 2}), batch.MustNew("b", []int{3, 4}))
	a, _ := stacked.Array("a")
	b, _ := stacked.Array("b")
	fmt.Println(a.Str())
	fmt.Println(b.Str())
	data := batch.MustNew("obs", [][]int{{1, 2}, {3, 4}}, "act", []int{0, 1})
	n, _ := data.Len()
	fmt.Println("Initial:", n)
	data.Cat(batch.MustNew("obs", [][]int{{5, 6}}, "act", []int{1}))
	n, _ = data.Len()
	obs, _ := data.Array("obs")
	fmt.Println("After Cat:", n)
	fmt.Println(obs.Str())
	// Output:
	// [[1 2]
	//  [0 0]]
	// [[0 0]
	//  [3 4]]
	// Initial: 2
	// After Cat: 3
	// [[1 2]
	//  [3 4]
	//  [5 6]]
}

// Seed 000 "Key Reservation" and seed 001 §6.1.
func ExampleBatch_IsEmpty() {
	b := batch.MustNew("known_field", []int{1, 2}, "future_field", batch.MustNew())
	fmt.Println(b)
	b.Set("future_field", []int{3, 4})
	fmt.Println(b)
	b2 := batch.MustNew("obs", batch.MustNew("camera", batch.MustNew(), "lidar", nd.Zeros(nd.Float64, 10)))
	fmt.Println(b2)
	fmt.Println(batch.MustNew().IsEmpty(false))
	r := batch.MustNew("a", batch.MustNew(), "b", batch.MustNew("c", batch.MustNew()))
	fmt.Println(r.IsEmpty(false), r.IsEmpty(true))
	fmt.Println(batch.MustNew("d", 1).IsEmpty(false))
	fmt.Println(batch.MustNew("a", float64(1)).IsEmpty(false))
	// Output:
	// Batch(
	//     known_field: array([1, 2]),
	//     future_field: Batch(),
	// )
	// Batch(
	//     known_field: array([1, 2]),
	//     future_field: array([3, 4]),
	// )
	// Batch(
	//     obs: Batch(
	//              camera: Batch(),
	//              lidar: array([0., 0., 0., 0., 0., 0., 0., 0., 0., 0.]),
	//          ),
	// )
	// true
	// false true
	// false
	// false
}

// Seed 000 "Length and Shape", seed 001 §6.2, §6.3 and §7.
func ExampleBatch_Len() {
	data := batch.MustNew("a", []float64{5, 4}, "b", nd.Zeros(nd.Float64, 2, 3, 4))
	n, _ := data.Len()
	fmt.Println(data.Shape(), n)
	row := data.Index(nd.I(0))
	_, err := row.Len()
	fmt.Println(row.Shape(), err)

	b1 := batch.MustNew("a", []int{1, 2, 3}, "b", []int{4, 5, 6})
	n, _ = b1.Len()
	fmt.Println("normal:", n, b1.Shape())
	b2 := batch.MustNew("a", 5, "b", 10)
	_, err = b2.Len()
	fmt.Println("scalar:", b2.Shape(), err)
	for _, b := range []*batch.Batch{
		batch.MustNew("a", []int{1, 2}, "b", []int{3, 4, 5}),
		batch.MustNew("a", []int{1, 2, 3}, "reserved", batch.MustNew()),
		batch.MustNew("a", []int{1, 2, 3}, "b", nil),
		batch.MustNew(),
		batch.MustNew("a", batch.MustNew(), "b", batch.MustNew()),
		batch.MustNew("a", []float64{}, "b", []float64{}),
	} {
		n, _ := b.Len()
		fmt.Println(b.NumKeys(), "keys, length", n)
	}
	// Output:
	// [2] 2
	// [] batch: key a: array(5.) has no length
	// normal: 3 [3]
	// scalar: [] batch: key a: array(5) has no length
	// 2 keys, length 2
	// 2 keys, length 3
	// 2 keys, length 3
	// 0 keys, length 0
	// 2 keys, length 0
	// 2 keys, length 0
}

// Seed 001 §6.3 and seed 003: Empty resets values to zeros or None; with an
// index, only those rows.
func ExampleEmpty() {
	b := batch.MustNew("a", []int{1, 2, 3}, "b", []string{"x", "y", "z"})
	row, _ := batch.Empty(b.Index(nd.I(0)))
	b.SetIndex(row, nd.I(0))
	fmt.Println(b)
	data, _ := batch.Stack(0, batch.MustNew("a", []float64{0, 2}), batch.MustNew("a", []float64{1, 3}, "b", "done"))
	data.Empty()
	fmt.Println(data)
	d := batch.MustNew("a", []bool{false, true}, "b", map[string]any{"c": []any{2.0, "st"}, "d": []float64{1, 0}})
	e, _ := batch.Empty(d.Index(nd.I(1)))
	d.SetIndex(e, nd.I(0))
	fmt.Println(d)
	// Output:
	// Batch(
	//     a: array([0, 2, 3]),
	//     b: array([None, 'y', 'z'], dtype=object),
	// )
	// Batch(
	//     a: array([[0., 0.],
	//               [0., 0.]]),
	//     b: array([None, None], dtype=object),
	// )
	// Batch(
	//     a: array([False,  True]),
	//     b: Batch(
	//            c: array([None, 'st'], dtype=object),
	//            d: array([0., 0.]),
	//        ),
	// )
}

// Seed 001 §6.5: missing values.
func ExampleBatch_DropNull() {
	b := batch.MustNew("a", []any{1, 2, nil, 4}, "b", []float64{5, math.NaN(), 7, 8}, "c", [][]int{{1, 2}, {3, 4}, {5, 6}, {7, 8}})
	fmt.Println("Has null?", b.HasNull())
	m := b.IsNull()
	ma, _ := m.Array("a")
	mb, _ := m.Array("b")
	fmt.Println("a:", ma.Str())
	fmt.Println("b:", mb.Str())
	clean, _ := b.DropNull()
	n, _ := clean.Len()
	ca, _ := clean.Array("a")
	cb, _ := clean.Array("b")
	fmt.Println("Length:", n)
	fmt.Println("a:", ca.Str())
	fmt.Println("b:", cb.Str())
	// Output:
	// Has null? true
	// a: [False False  True False]
	// b: [False  True False False]
	// Length: 2
	// a: [1 4]
	// b: [5. 8.]
}

// Seed 001 §6.6: value transforms, as a copy and in place.
func ExampleApply() {
	b := batch.MustNew("a", []int{1, 2, 3}, "nested", batch.MustNew("b", []float64{4, 5}, "c", []int{6, 7, 8}))
	doubled, _ := batch.Apply(b, func(v any) (any, error) { return nd.Mul(v, 2) })
	a, _ := b.Array("a")
	da, _ := doubled.Array("a")
	db, _ := doubled.Array("nested.b")
	fmt.Println("Original batch a:", a.Str())
	fmt.Println("Doubled batch a:", da.Str())
	fmt.Println("Doubled nested.b:", db.Str())
	b.Apply(func(v any) (any, error) { return nd.Add(v, 10) })
	a, _ = b.Array("a")
	nb, _ := b.Array("nested.b")
	fmt.Println("a:", a.Str())
	fmt.Println("nested.b:", nb.Str())
	// Output:
	// Original batch a: [1 2 3]
	// Doubled batch a: [2 4 6]
	// Doubled nested.b: [ 8. 10.]
	// a: [11 12 13]
	// nested.b: [14. 15.]
}

// Seed 001 §3.6 and seed 000's to_torch: dtype conversion in place and as a
// copy (there is no device).
func ExampleAsType() {
	b := batch.MustNew("a", nd.Zeros(nd.Float64, 3, 4), "b", nd.MustNew([]float64{1, 1, 1, 1, 1}))
	b.AsType(nd.Float32)
	a, _ := b.Array("a")
	fmt.Println("a dtype:", a.DType())
	c, _ := batch.AsType(b, nd.Float64)
	ca, _ := c.Array("a")
	a, _ = b.Array("a")
	fmt.Println("original:", a.DType(), "copy:", ca.DType())
	// Output:
	// a dtype: float32
	// original: float32 copy: float64
}

// Seed 001 §5: a custom leaf (here the fake Categorical and Normal of
// batchtest) is sliced with the batch, and ToAtLeast2D gives a scalar one a
// batch axis.
func ExampleLeaf() {
	probs := nd.MustNew([][]float64{{0.3, 0.7}, {0.4, 0.6}, {0.5, 0.5}})
	dist, _ := batchtest.NewCategorical(probs)
	b := batch.MustNew("dist", dist, "values", []int{1, 2, 3})
	n, _ := b.Len()
	fmt.Println("Original batch length:", n)
	fmt.Println("Original dist probs shape:", dist.Probs.Shape())
	sliced := b.Index(nd.Range(0, 2))
	n, _ = sliced.Len()
	sd, _ := sliced.Get("dist")
	sv, _ := sliced.Array("values")
	fmt.Println("Sliced batch length:", n)
	fmt.Println("Sliced dist probs shape:", sd.(*batchtest.Categorical).Probs.Shape())
	fmt.Println("Sliced values:", sv.Str())

	normal := &batchtest.Normal{Loc: nd.MustNew([]float64{0, 1, 2}), Scale: nd.MustNew([]float64{1, 1, 1})}
	bn := batch.MustNew("dist", normal, "actions", []float64{0.5, 1.5, 2.5})
	single := bn.Index(nd.I(1))
	d, _ := single.Get("dist")
	act, _ := single.Array("actions")
	fmt.Println("Single element mean:", d.(*batchtest.Normal).Mean().Str())
	fmt.Println("Single element action:", act.Str())

	scalarDist, _ := batchtest.NewCategorical(nd.MustNew([]float64{1, 1, 1}))
	scalar := batch.MustNew("a", 1, "b", 2, "dist", scalarDist)
	fmt.Println("Before:", scalarDist.BatchShape())
	two, _ := batch.ToAtLeast2D(scalar)
	td, _ := two.Get("dist")
	ta, _ := two.Array("a")
	fmt.Println("After:", td.(batch.Leaf).BatchShape(), "a:", ta.Shape())
	// Output:
	// Original batch length: 3
	// Original dist probs shape: [3 2]
	// Sliced batch length: 2
	// Sliced dist probs shape: [2 2]
	// Sliced values: [1 2]
	// Single element mean: 1.0
	// Single element action: 1.5
	// Before: []
	// After: [1] a: [1 1]
}

// Seed 001 §4 and §8: BatchProtocol's typed fields are the schema's Key
// constants; a function that takes a batch (train_step) reads the keys it
// needs, with deterministic data instead of the seed's random draw, and a
// missing key is an error naming it.
func ExampleKeyRew() {
	trainStep := func(b *batch.Batch) (float64, error) {
		rew, err := b.Array(batch.KeyRew)
		if err != nil {
			return 0, err
		}
		d, _ := nd.Sub(rew, 0.5)
		sq, _ := nd.Mul(d, d)
		m, _ := nd.Mean(sq)
		return m.Item().(float64), nil
	}
	b := batch.MustNew(
		batch.KeyObs, nd.Zeros(nd.Float64, 4, 4), batch.KeyObsNext, nd.Zeros(nd.Float64, 4, 4),
		batch.KeyAct, []int{0, 1, 1, 0}, batch.KeyRew, []float64{0, 1, 0.5, 1.5},
		batch.KeyTerminated, make([]bool, 4), batch.KeyTruncated, make([]bool, 4),
	)
	loss, _ := trainStep(b)
	fmt.Printf("Loss: %.4f\n", loss)
	_, err := trainStep(batch.MustNew(batch.KeyObs, []int{1, 2, 3}))
	fmt.Println(err)
	// Output:
	// Loss: 0.3750
	// batch: key rew: no such key
}

// Seed 001 §8 pattern 1: building a batch from steps (stacked rows).
func ExampleFromRows() {
	rng := rand.New(rand.NewPCG(1, 2))
	var steps []any
	for i := 0; i < 5; i++ {
		obs := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		steps = append(steps, map[string]any{"obs": obs, "act": i, "rew": rng.NormFloat64()})
	}
	episode, _ := batch.FromRows(steps...)
	obs, _ := episode.Array("obs")
	fmt.Println("Episode batch shape:", episode.Shape())
	fmt.Println("obs shape:", obs.Shape())
	// Output:
	// Episode batch shape: [5]
	// obs shape: [5 4]
}

// Seed 001 appendix: serialization round trip (pickle in the seed) and
// advanced indexing shapes.
func ExampleBatch_MarshalBinary() {
	original := batch.MustNew("obs", batch.MustNew("a", 0.0, "c", []float32{1, 2}), "np", nd.Zeros(nd.Float64, 3, 4))
	data, err := original.MarshalBinary()
	if err != nil {
		panic(err)
	}
	var restored batch.Batch
	if err := restored.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	oa, _ := original.Array("obs.a")
	ra, _ := restored.Array("obs.a")
	fmt.Println("Original obs.a:", oa.Str())
	fmt.Println("Restored obs.a:", ra.Str())
	fmt.Println("Equal:", batch.Equal(original, &restored))

	b := batch.MustNew("a", nd.Zeros(nd.Float64, 5, 3, 2))
	for _, idx := range [][]nd.Index{{nd.I(0)}, {nd.All(), nd.I(0)}, {nd.Ints(0, 2, 4)}} {
		a, _ := b.Index(idx...).Array("a")
		fmt.Println(a.Shape())
	}
	// Output:
	// Original obs.a: 0.0
	// Restored obs.a: 0.0
	// Equal: true
	// [3 2]
	// [5 2]
	// [3 3 2]
}

// A replay-buffer style gather: a destination allocated once and refilled
// by TakeTo without allocating.
func ExampleTakeTo() {
	storage := batch.MustNew("obs", nd.MustNew([][]float32{{0, 0}, {1, 1}, {2, 2}, {3, 3}}), "rew", []float32{0, 1, 2, 3})
	rows := []int{3, 0}
	dst, _ := batch.ZerosLike(storage, len(rows))
	batch.TakeTo(dst, storage, rows)
	fmt.Println(dst)
	// Output:
	// Batch(
	//     obs: array([[3., 3.],
	//                 [0., 0.]], dtype=float32),
	//     rew: array([3., 0.], dtype=float32),
	// )
}

// Storing transitions row by row into storage made by ZerosStacked, as a
// replay buffer does.
func ExampleBatch_SetRow() {
	first := batch.MustNew("obs", []float32{0.5, 1}, "act", 1, "info", batch.MustNew("env_id", 0))
	storage := batch.ZerosStacked(first, 3)
	storage.SetRow(0, first)
	storage.SetRow(1, batch.MustNew("obs", []float32{2, 3}, "act", 0, "info", batch.MustNew("env_id", 1)))
	fmt.Println(storage)
	// Output:
	// Batch(
	//     obs: array([[0.5, 1. ],
	//                 [2. , 3. ],
	//                 [0. , 0. ]], dtype=float32),
	//     act: array([1, 0, 0]),
	//     info: Batch(
	//               env_id: array([0, 1, 0]),
	//           ),
	// )
}

// Seed 003's indexing snippet: arrays of different lengths; the batch has
// the shortest length, so iteration yields one row.
func ExampleBatch_Shape() {
	data := batch.MustNew("a", nd.MustNew([][]float64{{0, 2}, {1, 3}}), "b", [][]int{{5, -5}})
	fmt.Println(data.Index(nd.I(0)))
	rows, _ := data.Rows()
	for sample := range rows {
		a, _ := sample.Array("a")
		fmt.Println(a.Str())
	}
	fmt.Println(data.Shape())
	data.Index(nd.All(), nd.I(1)).Add(1)
	fmt.Println(data)
	// Output:
	// Batch(
	//     a: array([0., 2.]),
	//     b: array([ 5, -5]),
	// )
	// [0. 2.]
	// [1 2]
	// Batch(
	//     a: array([[0., 3.],
	//               [1., 4.]]),
	//     b: array([[ 5, -4]]),
	// )
}

// Seed 001 §8 "When to nest vs flatten": nested keys are reached by path.
func ExampleBatch_Array() {
	nested := batch.MustNew(
		"obs", batch.MustNew("camera", nd.Zeros(nd.Float64, 32, 64, 64, 3), "lidar", nd.Zeros(nd.Float64, 32, 100), "position", nd.Zeros(nd.Float64, 32, 3)),
		"act", nd.Zeros(nd.Float64, 32),
	)
	camera, _ := nested.Array("obs.camera")
	fmt.Println("obs.camera shape:", camera.Shape())
	flat := batch.MustNew("camera", nd.Zeros(nd.Float64, 32, 64, 64, 3), "act", nd.Zeros(nd.Float64, 32))
	camera, _ = flat.Array("camera")
	fmt.Println("camera shape:", camera.Shape())
	// Output:
	// obs.camera shape: [32 64 64 3]
	// camera shape: [32 64 64 3]
}

// Errors name the key path they concern and wrap a sentinel (and nd's error
// where nd refused an operation).
func ExampleError() {
	b := batch.MustNew("obs", batch.MustNew("camera", nd.Zeros(nd.Uint8, 2, 3)), "rew", []float32{1, 2})
	err := b.Add(0.5)
	var be *batch.Error
	if errors.As(err, &be) {
		fmt.Println("key:", be.Path)
		fmt.Println("message:", be.Msg)
		fmt.Println(errors.Is(err, batch.ErrType), errors.Is(err, nd.ErrCast))
	}
	// Output:
	// key: obs.camera
	// message: cannot add in place
	// true true
}

// Seed 002's data[:, 1] += 6 on a Batch holding a tensor (here the fake
// tensor of batchtest, whose Index copies as a real tensor's x[:, 1] does):
// read, add, write back.
func ExampleArrayLeaf() {
	act, _ := nd.New([][]float32{{0, 0}, {0, 0}})
	data := batch.MustNew(
		"obs", map[string]any{"index": nd.Zeros(nd.Float64, 2, 3)},
		"act", &batchtest.Tensor{Values: act},
	)
	idx := []nd.Index{nd.All(), nd.I(1)}
	sub := data.Index(idx...)
	if err := sub.Add(6); err != nil {
		panic(err)
	}
	if err := data.SetIndex(sub, idx...); err != nil {
		panic(err)
	}
	fmt.Println(data.Index(nd.I(-1)))
	// Output:
	// Batch(
	//     obs: Batch(
	//              index: array([0., 6., 0.]),
	//          ),
	//     act: tensor([0. 6.]),
	// )
}
