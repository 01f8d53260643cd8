package minatar_test

import (
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/minatar"
)

// TestCheck runs the conformance checker on every registered id.
func TestCheck(t *testing.T) {
	for _, g := range minatar.Games {
		for _, v := range []string{"v0", "v1"} {
			id := g + "-MinAtar-" + v
			t.Run(id, func(t *testing.T) {
				e, err := env.Make(id)
				if err != nil {
					t.Fatal(err)
				}
				envtest.Check(t, e)
			})
		}
	}
}
