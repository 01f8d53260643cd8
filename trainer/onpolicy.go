package trainer

import (
	"context"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
)

// onPolicy is the loop of Tianshou's OnPolicyTrainer: collect
// StepPerCollect steps (or EpisodePerCollect episodes), learn from the
// whole collection in RepeatPerCollect passes of minibatches, then empty
// the buffer.
type onPolicy struct{ alg algo.OnPolicy }

func (*onPolicy) String() string { return "on-policy" }

// check also makes the default collection buffer: a buffer.Vector that
// holds one collection of StepPerCollect steps.
func (*onPolicy) check(t *Trainer) error {
	if err := t.checkCollect(); err != nil {
		return err
	}
	if t.setup.Buffer != nil {
		return nil
	}
	if t.cfg.EpisodePerCollect > 0 {
		return configError("the on-policy trainer needs a buffer to collect whole episodes into")
	}
	n := len(t.setup.TrainEnvs)
	bc := buffer.DefaultConfig()
	bc.Size = t.cfg.StepPerCollect + n
	buf, err := buffer.NewVector(bc, n)
	if err != nil {
		return err
	}
	t.buf = buf
	return nil
}

func (*onPolicy) prefill(context.Context, *Trainer) error { return nil }

func (k *onPolicy) epoch(ctx context.Context, t *Trainer, epoch int) error {
	return t.collectEpoch(ctx, epoch, k)
}

func (k *onPolicy) update(_ context.Context, t *Trainer, _ collector.Stats) error {
	stats, err := t.learner.StepAll(k.alg, t.buf, t.cfg.BatchSize, t.cfg.RepeatPerCollect)
	if err != nil {
		return err
	}
	t.buf.Reset()
	t.st.GradSteps++
	if err := t.keepUpdate(stats); err != nil {
		return err
	}
	return nil
}

func (*onPolicy) step(t *Trainer) int64 { return t.st.EnvSteps }
