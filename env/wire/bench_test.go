package wire_test

import (
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/wire"
	"github.com/gorl/gorl/nd"
)

// BenchmarkStep measures a step of a Go env served by a worker process: a
// request and a reply through two pipes. CartPole-v1 has a 16-byte
// observation (the round trip's fixed cost); Frames-v0 an 84×84×4 uint8
// frame stack (28,224 bytes). Each runs over the pipes and over the
// shared region.
func BenchmarkStep(b *testing.B) {
	for _, id := range []string{"CartPole-v1", "wiretest/Frames-v0"} {
		for _, tr := range transports {
			b.Run(id+"/"+tr.name, func(b *testing.B) { benchStep(b, id, tr.shared) })
		}
	}
}

func benchStep(b *testing.B, id string, shared bool) {
	sharedOK(b, shared)
	{
		{
			cmd, _ := wire.SelfCommand(id)
			e, err := wire.Start(cmd, wire.Options{SharedMemory: shared})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			act := nd.MustNew(int64(1))
			if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(e.ObservationSpace().(*env.Box).Low().Size()))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				_, _, term, trunc, _, err := e.Step(act)
				if err != nil {
					b.Fatal(err)
				}
				if term || trunc {
					if _, _, err := e.Reset(env.NoSeed); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
}
