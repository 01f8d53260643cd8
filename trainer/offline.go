package trainer

import (
	"context"
	"math"
	"time"

	"github.com/gorl/gorl/algo"
)

// offline is the loop of Tianshou's OfflineTrainer: StepPerEpoch gradient
// steps per epoch on batches sampled from a fixed buffer, without training
// envs; statistics are logged at the number of gradient steps.
type offline struct{ alg algo.OffPolicy }

func (*offline) String() string { return "offline" }

func (k *offline) check(t *Trainer) error {
	if err := t.checkSample(k); err != nil {
		return err
	}
	if t.setup.Buffer.Len() == 0 {
		return configError("the offline trainer's buffer is empty")
	}
	return nil
}

func (*offline) prefill(context.Context, *Trainer) error { return nil }

func (k *offline) epoch(ctx context.Context, t *Trainer, epoch int) error {
	uStart := time.Now()
	defer func() { t.res.UpdateTime += time.Since(uStart) }()
	for done := 1; done <= t.cfg.StepPerEpoch; done++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if t.setup.TrainHook != nil {
			t.setup.TrainHook(epoch, t.st.EnvSteps)
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
		if t.setup.Progress != nil {
			t.setup.Progress.SetUpdates(int64(done))
			if err := t.setup.Progress.Update(int64(done), math.NaN()); err != nil {
				return err
			}
		}
		if t.st.GradSteps >= t.st.NextLog {
			t.st.NextLog += int64(t.cfg.LogInterval)
			if err := t.log("update", t.st.GradSteps, t.lastUpdate); err != nil {
				return err
			}
		}
	}
	return nil
}

func (*offline) step(t *Trainer) int64 { return t.st.GradSteps }
