package tensor_test

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// Seed 002's snippet: an nd array and a tensor in one Batch, changed
// together by data[:, 1] += 6.
func ExampleTensor_Array() {
	// data = Batch(obs={'index': np.zeros((2, 3))}, act=torch.zeros((2, 2)))
	data := batch.MustNew(
		"obs", map[string]any{"index": nd.Zeros(nd.Float64, 2, 3)},
		"act", tensor.New(2, 2),
	)
	// data[:, 1] += 6: Python reads data[:, 1], adds 6 and writes it back.
	// The tensor's part of data[:, 1] is a copy (a tensor's x[:, 1] is not
	// contiguous), so the write back is what changes it.
	idx := []nd.Index{nd.All(), nd.I(1)}
	sub := data.Index(idx...)
	if err := sub.Add(6); err != nil {
		panic(err)
	}
	if err := data.SetIndex(sub, idx...); err != nil {
		panic(err)
	}
	// print(data[-1])
	fmt.Println(data.Index(nd.I(-1)))
	// Output:
	// Batch(
	//     obs: Batch(
	//              index: array([0., 6., 0.]),
	//          ),
	//     act: [0 6],
	// )
}
