package nd_test

import (
	"errors"
	"fmt"

	"github.com/gorl/gorl/nd"
)

func ExampleNew() {
	a := nd.MustNew([][]float64{{0, 2}, {1, 3}})
	fmt.Println(a)
	fmt.Println(nd.MustNew([]any{1, "hello", nil}))
	fmt.Println(nd.MustNew([]any{1, 2.5}))
	fmt.Println(nd.MustNew(5))
	_, err := nd.New([][]int{{1, 2}, {3}})
	fmt.Println(err != nil)
	// Output:
	// array([[0., 2.],
	//        [1., 3.]])
	// array([1, 'hello', None], dtype=object)
	// array([1. , 2.5])
	// array(5)
	// true
}

func ExampleFromSlice() {
	data := []float32{1, 2, 3, 4, 5, 6}
	a, err := nd.FromSlice(data, 2, 3)
	if err != nil {
		panic(err)
	}
	data[0] = 10 // the array references data
	fmt.Println(a)
	// Output:
	// array([[10.,  2.,  3.],
	//        [ 4.,  5.,  6.]], dtype=float32)
}

func ExampleArray_Index() {
	a := nd.MustNew([][]int{{0, 1, 2}, {3, 4, 5}})
	fmt.Println(a.Index(nd.All(), nd.I(1)))              // a[:, 1], a view
	fmt.Println(a.Index(nd.Step(-1)))                    // a[::-1], a view
	fmt.Println(a.Index(nd.Ints(1, 0, 1)))               // a[[1, 0, 1]], a copy
	fmt.Println(a.Index(nd.Mask(false, true), nd.To(2))) // a[[False, True], :2], a copy
	// Output:
	// array([1, 4])
	// array([[3, 4, 5],
	//        [0, 1, 2]])
	// array([[3, 4, 5],
	//        [0, 1, 2],
	//        [3, 4, 5]])
	// array([[3, 4]])
}

func ExampleArray_SetIndex() {
	a := nd.Zeros(nd.Float64, 2, 3)
	// a[:, 1:] = [1, 2], broadcast over the rows.
	if err := a.SetIndex([]float64{1, 2}, nd.All(), nd.From(1)); err != nil {
		panic(err)
	}
	// Writing through a view writes into a.
	row := a.Index(nd.I(1))
	if err := row.SetIndex(9, nd.I(0)); err != nil {
		panic(err)
	}
	fmt.Println(a)
	// A float does not go silently into an int array.
	err := nd.Zeros(nd.Int64, 2).SetIndex(2.7, nd.I(0))
	fmt.Println(err)
	// Output:
	// array([[0., 1., 2.],
	//        [9., 1., 2.]])
	// nd: cannot assign 2.7 (float64) to an array of dtype int64: the value does not fit
}

func ExampleStack() {
	s, err := nd.Stack(0, nd.MustNew([]float64{0, 2}), nd.MustNew([]float64{1, 3}))
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	_, err = nd.Stack(0, nd.MustNew([]int{1}), nd.MustNew([]int{1, 2}))
	fmt.Println(err)
	// Output:
	// array([[0., 2.],
	//        [1., 3.]])
	// nd: all input arrays must have the same shape: array 0 has shape (1,), array 1 has shape (2,)
}

func ExampleAdd() {
	a := nd.MustNew([][]float32{{0, 2}, {1, 3}})
	b, _ := nd.Add(a, nd.MustNew([]float32{10, 20})) // broadcast a row
	fmt.Println(b)
	c, _ := nd.Mul(nd.MustNew([]int{1, 2}), 0.5) // a Go float makes an int array float64
	fmt.Println(c)
	if err := a.Index(nd.All(), nd.I(1)).Add(10); err != nil { // a[:, 1] += 10
		panic(err)
	}
	fmt.Println(a)
	// Output:
	// array([[10., 22.],
	//        [11., 23.]], dtype=float32)
	// array([0.5, 1. ])
	// array([[ 0., 12.],
	//        [ 1., 13.]], dtype=float32)
}

func ExampleArray_String() {
	fmt.Println(nd.MustNew([]int{5, -5}))
	fmt.Println(nd.MustNew([]any{nil, "done"}))
	fmt.Println(nd.MustNew([]int32{1, 2}))
	fmt.Println(nd.MustNew([]bool{false, true}).Str())
	// Output:
	// array([ 5, -5])
	// array([None, 'done'], dtype=object)
	// array([1, 2], dtype=int32)
	// [False  True]
}

func ExampleRepr() {
	fmt.Println(nd.Repr("it's"))
	fmt.Println(nd.Repr([]any{1.0, nil, map[string]bool{"done": true}}))
	// Output:
	// "it's"
	// [1.0, None, {'done': True}]
}

func ExampleSum() {
	a := nd.MustNew([][]int{{5, -4}, {1, -1}})
	s, _ := nd.Sum(a, 0)
	m, _ := nd.Mean(a)
	i, _ := nd.Argmax(a, -1)
	fmt.Println(s, m, i)
	// Output:
	// array([ 6, -5]) array(0.25) array([0, 0])
}

func ExampleTakeTo() {
	obs := nd.MustNew([][]float32{{0, 0}, {1, 1}, {2, 2}, {3, 3}})
	dst := nd.Zeros(nd.Float32, 2, 2) // reused across calls: no allocation
	nd.TakeTo(dst, obs, []int{3, -4})
	fmt.Println(dst)
	// Output:
	// array([[3., 3.],
	//        [0., 0.]], dtype=float32)
}

func ExampleResultType() {
	fmt.Println(nd.ResultType(nd.Int64, nd.Float32))
	fmt.Println(nd.ResultType(nd.Int8, nd.Uint8))
	fmt.Println(nd.CanCast(nd.Float64, nd.Int64))
	fmt.Println(nd.Float32.Size())
	// Output:
	// float64
	// int16
	// false
	// 4
}

func ExampleIndex() {
	a := nd.MustNew([][][]int{{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}})
	idx := []nd.Index{nd.Ellipsis(), nd.Step(-1), nd.I(0)} // a[..., ::-1, 0]
	fmt.Println(idx[0], idx[1], idx[2], nd.Ints(1, 0))
	fmt.Println(a.Index(idx...))
	// Output:
	// ... ::-1 0 [1, 0]
	// array([[2, 0],
	//        [6, 4]])
}

func ExampleError() {
	a := nd.Zeros(nd.Float32, 3, 2)
	err := a.SetRow(0, nd.MustNew([]float32{1, 2, 3}))
	fmt.Println(errors.Is(err, nd.ErrShape))
	fmt.Println(err)
	// Output:
	// true
	// nd: could not broadcast input array from shape (3,) into shape (2,)
}

func ExampleDTypeOf() {
	fmt.Println(nd.DTypeOf[float32](), nd.DTypeOf[any](), nd.DTypeOf[int]() == 0)
	// Output: float32 object true
}

// A Block makes the arrays of one operation from a few allocations: here
// the rows 2 and 0 of two arrays, as a Batch gathers a minibatch.
func ExampleBlock() {
	obs := nd.MustNew([][]float32{{0, 1}, {2, 3}, {4, 5}})
	act := nd.MustNew([]int64{7, 8, 9})
	rows := nd.Ints(2, 0)
	var k nd.Block
	k.Reserve(obs, rows)
	k.Reserve(act, rows)
	fmt.Println(k.Index(obs, rows))
	fmt.Println(k.Index(act, rows))
	fmt.Println(k.Index(act, nd.From(1))) // a view, as act.Index(nd.From(1))
	// Output:
	// array([[4., 5.],
	//        [0., 1.]], dtype=float32)
	// array([9, 7])
	// array([8, 9])
}
