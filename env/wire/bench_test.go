package wire_test

import (
	"testing"
	"time"

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
		for _, tr := range benchTransports {
			b.Run(id+"/"+tr.name, func(b *testing.B) { benchStep(b, id, tr.shared, tr.spin) })
		}
	}
}

// benchTransports are the pipes, the shared region with the default spin,
// and the shared region with no spinning (each wait sleeps on the pipe).
var benchTransports = []struct {
	name   string
	shared bool
	spin   time.Duration
}{{"pipe", false, 0}, {"shm", true, 0}, {"shm-nospin", true, -1}}

func benchStep(b *testing.B, id string, shared bool, spin time.Duration) {
	sharedOK(b, shared)
	{
		{
			cmd, _ := wire.SelfCommand(id)
			e, err := wire.Start(cmd, wire.Options{SharedMemory: shared, Spin: spin})
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
