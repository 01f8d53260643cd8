package trainer

import (
	"context"
	"math"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/collector"
)

// offPolicy is the loop of Tianshou's OffPolicyTrainer: collect
// StepPerCollect steps (or EpisodePerCollect episodes) into the replay
// buffer, then make UpdatePerStep gradient steps per env step collected,
// each on a batch sampled from the buffer. A prefill fills the buffer
// before the first test.
type offPolicy struct{ alg algo.OffPolicy }

func (*offPolicy) String() string { return "off-policy" }

func (k *offPolicy) check(t *Trainer) error {
	if err := t.checkCollect(); err != nil {
		return err
	}
	return t.checkSample(k)
}

// checkSample checks what the trainers that sample from a buffer
// (off-policy, offline) need: a batch size and a buffer.
func (t *Trainer) checkSample(k kind) error {
	if t.cfg.BatchSize < 1 {
		return configError("batch_size %d < 1", t.cfg.BatchSize)
	}
	if t.setup.Buffer == nil {
		return configError("the %v trainer needs a buffer", k)
	}
	return nil
}

func (*offPolicy) prefill(ctx context.Context, t *Trainer) error {
	if t.cfg.PrefillSteps <= 0 {
		return nil
	}
	t.schedule()
	t.pol.SetTrainingStep(true)
	if t.ov != nil {
		t.ov.sync()
		t.ov.schedule(t.st.EnvSteps)
	}
	cs, err := t.train.Collect(ctx, collector.Request{NStep: t.cfg.PrefillSteps, Random: t.cfg.PrefillRandom})
	t.res.CollectTime += cs.Duration
	t.st.Prefill += int64(cs.Steps)
	return err
}

func (k *offPolicy) epoch(ctx context.Context, t *Trainer, epoch int) error {
	if t.ov != nil {
		return k.overlapEpoch(ctx, t, epoch)
	}
	return t.collectEpoch(ctx, epoch, k)
}

func (k *offPolicy) update(ctx context.Context, t *Trainer, cs collector.Stats) error {
	n := int(math.Round(t.cfg.UpdatePerStep * float64(cs.Steps)))
	for range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		t.schedule()
		stats, err := t.learner.Step(k.alg, t.buf, t.cfg.BatchSize, t.rng)
		if err != nil {
			return err
		}
		t.st.GradSteps++
		if err := t.keepUpdate(stats); err != nil {
			return err
		}
	}
	return nil
}

func (*offPolicy) step(t *Trainer) int64 { return t.st.EnvSteps }
