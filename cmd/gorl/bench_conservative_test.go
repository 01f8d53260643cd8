package main

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/cql"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// TestSampledData checks the Pendulum dataset's collection: the steps asked
// for, with env actions (the form datasets hold) in Pendulum's [−2, 2], some
// of them beyond the policy's raw range ±1 (an untrained actor's samples,
// tanh of a Gaussian of σ near 1, fall outside ±0.5 more often than not),
// and the same data again from the same seed.
func TestSampledData(t *testing.T) {
	newCQL := func() (*cql.CQL, error) {
		obs, act, err := spaces("Pendulum-v1")
		if err != nil {
			return nil, err
		}
		return cql.New(cql.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
	}
	var got [2]batch.Batch
	for i := range got {
		c, err := newCQL()
		if err != nil {
			t.Fatal(err)
		}
		data, _, err := sampledData(context.Background(), c.Policy(), "Pendulum-v1", 300, 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		if data.Len() != 300 {
			t.Fatalf("%d transitions, want 300", data.Len())
		}
		if err := data.TakeTo(&got[i], data.SampleIndices(0, nil)); err != nil {
			t.Fatal(err)
		}
	}
	act, err := got[0].Array("act")
	if err != nil {
		t.Fatal(err)
	}
	beyond := 0
	for _, a := range nd.Data[float32](act) {
		if !(a >= -2 && a <= 2) {
			t.Fatalf("stored action %v outside [−2, 2]", a)
		}
		if a < -1 || a > 1 {
			beyond++
		}
	}
	if beyond == 0 {
		t.Error("no stored action beyond ±1: the buffer holds raw actions, not env actions")
	}
	if !batch.Equal(&got[0], &got[1]) {
		t.Error("two collections from one seed differ")
	}
}
