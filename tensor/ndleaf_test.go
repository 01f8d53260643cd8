package tensor_test

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/tensor"
)

func TestArrayLeaf(t *testing.T) {
	x := tensor.New(2, 2)
	b := batch.MustNew("x", x)
	if err := b.Add(1.5); err != nil {
		t.Fatal(err)
	}
	// Array shares x's memory, so the Batch's arithmetic changed x.
	for i, v := range x.Data() {
		if v != 1.5 {
			t.Fatalf("x.Data()[%d] = %v after Add(1.5)", i, v)
		}
	}
	if err := b.Empty(); err != nil || x.Data()[3] != 0 {
		t.Fatalf("Empty: %v, x = %v", err, x.Data())
	}
	// A tensor requiring gradients is not changed in place.
	w := tensor.New(2).SetRequiresGrad(true)
	if w.Array() != nil {
		t.Fatal("Array of a tensor requiring gradients is not nil")
	}
	if err := batch.MustNew("w", w).Add(1); !errors.Is(err, batch.ErrType) {
		t.Fatalf("Add on a tensor requiring gradients: %v, want ErrType", err)
	}
	if w.Data()[0] != 0 {
		t.Fatalf("w changed: %v", w.Data())
	}
}
