package ndtest_test

import (
	"fmt"

	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nd/ndtest"
)

func ExampleParseIndex() {
	a := nd.MustNew([][]int{{0, 1, 2}, {3, 4, 5}})
	idx, err := ndtest.ParseIndex("::-1, [0, 2]")
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Index(idx...))
	// Output:
	// array([[3, 5],
	//        [0, 2]])
}
