package a3c

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"testing"

	"github.com/gorl/gorl/env"
)

func probeSpaces(t *testing.T) (obs, act env.Space) {
	t.Helper()
	e, err := env.Make("CartPole-v1")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	return e.ObservationSpace(), e.ActionSpace()
}

func floatBlob(xs []float32) []byte {
	b := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
