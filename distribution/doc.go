// Package distribution provides the probability distributions of RL
// policies, PyTorch's torch.distributions for gorl: Categorical (discrete
// actions) and Normal (continuous actions), differentiable through package
// tensor.
//
// # Overview
//
// A distribution is set up from parameter tensors, usually the outputs of a
// network recorded on a tensor.Tape:
//
//	var d distribution.Categorical
//	if err := d.SetLogits(tp, logits); err != nil { … } // logits [B, K]
//	act := d.Sample(rng)          // [B] category indices as float32
//	logp := d.LogProb(act)        // [B], differentiable w.r.t. logits
//	ent := d.Entropy()            // [B], differentiable
//
// Shapes follow PyTorch: the batch shape (BatchShape) indexes independent
// distributions, the event shape (EventShape) is the shape of one draw, a
// sample has shape batch + event and LogProb returns the batch shape. A
// Categorical over logits [B, K] has batch shape [B] and event shape [];
// a Normal's batch shape is the broadcast shape of its location and scale.
//
// Sample draws from an injected *rand.Rand and carries no gradient. Normal
// also has RSample, the reparameterized sample loc + scale·ε through which
// gradients flow to loc and scale. LogProb, Entropy, Probs and Logits are
// differentiable where PyTorch's are; Mode is the argmax (no gradient) or
// the location.
//
// # Invariants
//
//   - Every result is recorded on the tape given to Set and lives until that
//     tape is Reset (with a nil tape, results are allocated and live as long
//     as they are referenced). The parameters must be leaves or results of
//     that tape.
//   - Set validates parameter values: NaN logits, negative probabilities, a
//     scale that is not positive return an error wrapping ErrParam and leave
//     the distribution unchanged (PyTorch's validate_args, which catches a
//     diverged policy). Shapes that do not fit are programmer errors and
//     panic with ErrShape, as do values outside the support in LogProb
//     (ErrValue).
//   - A distribution reused across steps (Set again after the tape's Reset)
//     does not allocate: its scratch memory and the tape's buffers are reused.
//
// # Aliasing
//
// A Normal keeps its location and scale tensors (Loc, Scale and Mode return
// them, expanded by a tape operation when they had to be broadcast). A
// Categorical keeps the normalized logits or probabilities it computed on
// the tape. Sample, LogProb, Entropy and Mode return new tape results. Set
// replaces the parameters in place: a distribution stored elsewhere (in a
// Batch) changes with it.
//
// # Decisions
//
//   - Values of a Categorical (samples, modes, LogProb's argument) are
//     float32 tensors holding category indices, not []int: every
//     distribution then shares one Distribution interface, samples live on
//     the tape without allocating, and float32 is exact up to 2²⁴
//     categories.
//   - Distributions are reusable values (var d Categorical; d.SetLogits(…))
//     rather than constructors returning new pointers: PPO sets one up per
//     minibatch, and a reused one allocates nothing.
//   - Sample draws one value (PyTorch's sample() with the default empty
//     sample_shape): RL draws one action per step. LogProb still broadcasts
//     a value with leading sample axes against the batch shape, as PyTorch
//     does.
//   - A Categorical samples by inverting the cumulative probabilities of its
//     row with one uniform draw (u·Σp, so rounding in the normalization
//     cannot skip the last category). This is exact and costs one
//     rng.Float64 per row; PyTorch's multinomial draws a different stream,
//     so seeds reproduce runs of this package, not of PyTorch.
//   - Normal samples are computed in float32 with the same rounding as the
//     tensor operations of RSample, so Sample and RSample give the same
//     value from the same generator state.
//   - A location and a scale of different shapes are broadcast once, in Set,
//     by tensor.Tape.Where(other, x, x): both branches are x, so it repeats x
//     along the broadcast axes with its gradient summed back, without a
//     zero tensor to allocate.
//   - Samples and modes are tape results whose memory comes from a
//     gradient-free operation of the right shape (a Gather or AddScalar of
//     the detached parameters), overwritten with the drawn values; the tape
//     has no operation that creates a fresh tensor of a given shape.
package distribution
