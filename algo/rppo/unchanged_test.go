package rppo_test

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// TestWithoutSDEUnchanged checks that recurrent PPO without state-dependent
// exploration computes what it did before the option existed, bit for bit:
// the FNV-64a hash of the actions its policy samples for fixed observations
// over three steps, and of its saved state after two updates on fixed
// collections, against the hashes recorded from the implementation before
// use_sde, sde_sample_freq and log_std_init were added. The hashes were
// recorded on amd64 with gonum's pure-Go BLAS, whose results do not depend
// on the CPU's kernels: under OpenBLAS the test runs itself again in a
// child process with GORL_BLAS=gonum.
func TestWithoutSDEUnchanged(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("hashes recorded on amd64")
	}
	if !strings.HasPrefix(tensor.BLASName(), "gonum") {
		if testing.Short() {
			t.Skip("starts a child process")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestWithoutSDEUnchanged$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "GORL_BLAS=gonum")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestWithoutSDEUnchanged") {
			t.Errorf("child with gonum's BLAS: %v\n%s", err, out)
		}
		return
	}
	for _, c := range []struct {
		name string
		cfg  func(*rppo.Config)
		box  bool
		want uint64
	}{
		{"gru/shared/discrete", func(*rppo.Config) {}, false, 0x33ed6bd13de02d8d},
		{"gru/shared/box", func(*rppo.Config) {}, true, 0x3ca4e405a6166853},
		{"lstm/separate/box", func(c *rppo.Config) { c.Cell, c.SeparateTrunks = rppo.CellLSTM, true }, true, 0xde92e7724712a289},
		{"gru/linear heads/box", func(c *rppo.Config) { c.HeadHidden = nil }, true, 0x52e03d4f8643c562},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := rppo.DefaultConfig()
			cfg.Hidden, cfg.HeadHidden, cfg.SeqLen = 16, []int{8}, 5
			c.cfg(&cfg)
			act := env.Space(algotest.Discrete(t, 3, 0))
			if c.box {
				act = algotest.Box(t, -2, 2, 2)
			}
			if got := runHash(t, cfg, act); got != c.want {
				t.Errorf("hash %#x; want %#x", got, c.want)
			}
		})
	}
}

// runHash returns the FNV-64a hash of the actions an RPPO made from a fixed
// seed samples over three steps of 3 observations, each step from the
// state the previous one returned, and of its state saved after two
// updates of 2 passes over minibatches of 32 on collections of 4 envs × 25
// steps.
func runHash(t *testing.T, cfg rppo.Config, act env.Space) uint64 {
	t.Helper()
	r, err := rppo.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	p := r.Policy()
	p.SetTrainingStep(true)
	obs := nd.Zeros(nd.Float32, 3, 4)
	var state any
	for step := range 3 {
		o := nd.Data[float32](obs)
		for i := range o {
			o[i] = float32(math.Sin(float64(7*step + i)))
		}
		var out batch.Batch
		if err := p.Act(&out, batch.MustNew(batch.KeyObs, obs), state, true); err != nil {
			t.Fatal(err)
		}
		a, err := out.Array(batch.KeyAct)
		if err != nil {
			t.Fatal(err)
		}
		if a.DType() == nd.Int64 {
			for _, v := range nd.Data[int64](a) {
				h.Write([]byte{byte(v)})
			}
		} else {
			for _, v := range nd.Data[float32](a) {
				b := math.Float32bits(v)
				h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24)})
			}
		}
		s, err := out.Array(batch.KeyState)
		if err != nil {
			t.Fatal(err)
		}
		next := nd.Zeros(nd.Float32, s.Shape()...)
		if err := nd.CopyTo(next, s); err != nil {
			t.Fatal(err)
		}
		state = next
	}
	var l algo.Learner
	for i := range 2 {
		buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(9, uint64(i))))
		if _, err := l.StepAll(r, buf, 32, 2); err != nil {
			t.Fatal(err)
		}
	}
	h.Write(algotest.State(t, r))
	return h.Sum64()
}
