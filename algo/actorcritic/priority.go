package actorcritic

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/tensor"
)

// NextValues stores in dst the bootstrap values minᵢ Q′ᵢ(s′, μ′(s′)) of
// the observations next holds under "obs", Preprocess's targets, for
// callers that gather n-step returns themselves (Ape-X's learner and
// actors). It panics if len(dst) is not next's number of rows.
func (d *Deterministic) NextValues(dst []float32, next *batch.Batch) error {
	return d.targets(dst, next)
}

// TDErrorsTo stores in dst |G − Q₁(s, a)| for the rows of b (obs, act and
// returns, as CriticStep reads them) without changing anything: the
// initial priorities Ape-X's actors compute.
func (d *Deterministic) TDErrorsTo(dst []float64, b *batch.Batch) error {
	d.ntp.Reset()
	var q QBatch
	if err := q.Read(&d.ntp, b, d.actDim); err != nil {
		return err
	}
	v := d.CriticNets.Online[0].Q(&d.ntp, d.normalize(&d.ntp, q.Obs), q.Act).Data()
	if len(dst) != len(v) {
		return fmt.Errorf("actorcritic: TDErrorsTo: %d values for %d rows", len(dst), len(v))
	}
	for i, g := range q.Returns.Data() {
		dst[i] = math.Abs(float64(g - v[i]))
	}
	return nil
}

// WeightedCriticStep is CriticStep with importance-sampling weights wⱼ, b's
// "weight" (prioritized replay's; all 1 when b has none): one step of the
// critics on Σᵢ mean(w·(Qᵢ(s, a) − G)²). It stores in td the first
// critic's TD errors G − Q₁(s, a) before the step, the new priorities, and
// returns the loss, or an error, changing nothing, for a batch without
// obs, act and returns, of other shapes, or a td of another length.
func (d *Deterministic) WeightedCriticStep(b *batch.Batch, td []float64) (float64, error) {
	tp := &d.ctp
	tp.Reset()
	if err := d.q.Read(tp, b, d.actDim); err != nil {
		return 0, err
	}
	k := d.q.Obs.Dim(0)
	if len(td) != k {
		return 0, fmt.Errorf("actorcritic: WeightedCriticStep: %d TD errors for %d rows", len(td), k)
	}
	var w *tensor.Tensor
	if b.Has(batch.KeyWeight) {
		a, err := b.Array(batch.KeyWeight)
		if err != nil {
			return 0, fmt.Errorf("actorcritic: %w", err)
		}
		if w, err = tp.FromND(a); err != nil {
			return 0, fmt.Errorf("actorcritic: weight: %w", err)
		}
		if w.NDim() != 1 || w.Dim(0) != k {
			return 0, fmt.Errorf("actorcritic: weight of shape %v; want [%d]", w.Shape(), k)
		}
	}
	obs := d.normalize(tp, d.q.Obs)
	var loss *tensor.Tensor
	for i, q := range d.CriticNets.Values(tp, obs, d.q.Act) {
		if i == 0 {
			g, v := d.q.Returns.Data(), q.Data()
			for j := range td {
				td[j] = float64(g[j] - v[j])
			}
		}
		diff := tp.Sub(q, d.q.Returns)
		sq := tp.Mul(diff, diff)
		if w != nil {
			sq = tp.Mul(w, sq)
		}
		l := tp.Mean(sq)
		if loss == nil {
			loss = l
		} else {
			loss = tp.Add(loss, l)
		}
	}
	d.CriticNets.StepLoss(tp, loss)
	return float64(loss.Item()), nil
}
