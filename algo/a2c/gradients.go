package a2c

import (
	"fmt"

	"github.com/gorl/gorl/batch"
)

// Gradients computes the gradients of L over the whole collection b (one
// minibatch, Preprocess first) into the parameters of the networks,
// replacing what they held, and takes no optimizer step: the gradient an
// A3C worker sends to the shared model. It returns "loss", "actor_loss",
// "vf_loss" and "entropy" in the map UpdateRepeat returns, and an error,
// computing nothing, if b lacks a key or holds actions outside the action
// space.
func (a *A2C) Gradients(b *batch.Batch) (map[string]float64, error) {
	r := &a.Roll
	if err := r.Load(b, a.Space, false); err != nil {
		return nil, err
	}
	for _, k := range [...]string{batch.KeyReturns, batch.KeyAdv} {
		if err := r.Read(b, k); err != nil {
			return nil, fmt.Errorf("%w (run Preprocess first)", err)
		}
	}
	tp := &a.Tape
	tp.Reset()
	loss, actorLoss, vfLoss, ent, err := a.loss(tp, r.Rows(0, 0), r.Column(batch.KeyReturns), r.Column(batch.KeyAdv), r.Act())
	if err != nil {
		return nil, err
	}
	a.Net.Params().ZeroGrad()
	tp.Backward(loss)
	a.stats["loss"], a.stats["actor_loss"] = float64(loss.Item()), float64(actorLoss.Item())
	a.stats["vf_loss"], a.stats["entropy"] = float64(vfLoss.Item()), float64(ent.Item())
	return a.stats, nil
}
