// Package distribution provides the probability distributions of RL
// policies, PyTorch's torch.distributions for gorl: Categorical (discrete
// actions), Normal, TanhNormal (SAC's squashed Gaussian) and Independent
// (which turns batch axes into event axes), differentiable through package
// tensor and usable as custom leaves of a batch.Batch.
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
// a Normal's batch shape is the broadcast shape of its location and scale;
// Independent(normal [B, A], 1) has batch shape [B] and event shape [A].
//
// Sample draws from an injected *rand.Rand and carries no gradient. Normal
// and TanhNormal (and an Independent over them) also have RSample, the
// reparameterized sample through which gradients flow to the parameters.
// LogProb, Entropy, Probs and Logits are differentiable where PyTorch's
// are; Mode is the argmax (no gradient), the location, or tanh of it.
//
// Every distribution is a batch.Leaf, as torch distributions are values of
// Tianshou's Batch: a Batch holding one indexes it with its arrays
// (batch[0:2] keeps the first two rows of the parameters, batch[1] a scalar
// distribution), Stack and Cat of Batches stack and concatenate the
// parameters, and batch.ToAtLeast2D gives a distribution without batch axis
// one of length 1 (Stack of itself alone, Tianshou's dist_to_atleast_2d).
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
//     (ErrValue). Stack and Cat, which join data, return errors.
//   - A distribution reused across steps (Set again after the tape's Reset)
//     allocates nothing of its own: its scratch memory and the tape's
//     buffers are reused (see Decisions for the tensor operations).
//   - Index, Stack and Cat return new distributions and leave their operands
//     alone; they record on the operands' tape, so gradients flow back
//     through them.
//
// # Aliasing
//
// A Normal keeps its location and scale tensors (Loc, Scale and Mode return
// them, expanded by a tape operation when they had to be broadcast). A
// Categorical keeps the normalized logits or probabilities it computed on
// the tape. Sample, LogProb, Entropy and Mode return new tape results.
// Index shares the parameters' memory when the selected rows are contiguous
// (tensor.Tape.Index), Stack and Cat copy them. Set replaces the parameters
// in place: a distribution stored in a Batch changes with it, so set up a
// new one for each value a Batch keeps. An Independent keeps its base by
// reference.
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
//   - TanhNormal writes log(1 − tanh²u) as 2·(log 2 − u − softplus(−2u)),
//     exact for every u, instead of SAC implementations' log(1 − a² + 10⁻⁶),
//     which is biased near ±1 and saturates where tanh rounds to 1 (u > 9 in
//     float32). Like PyTorch's TanhTransform(cache_size=1) it remembers the
//     pre-image u of its last sample, so LogProb of that sample is exact and
//     differentiable through it; other values are inverted with atanh after
//     clamping to ±(1 − 2⁻²⁴), which keeps them finite.
//   - TanhNormal has no Entropy: there is no closed form, PyTorch's
//     transformed distributions raise NotImplementedError, and SAC uses
//     −log p of a sample. An Independent over it panics with ErrKind on
//     Entropy, as PyTorch raises.
//   - Index appends one whole slice per event (or category) axis to the
//     caller's index before indexing the parameters, so every nd index form
//     (integers, ranges, Ellipsis, NewAxis, Ints, masks) acts on the batch
//     axes only, with numpy's semantics; it costs time proportional to the
//     parameters' size (Tape.Index), which is small next to a Batch's arrays.
//   - Stack and Cat of distributions from different tapes record on the
//     tape of those whose parameters require gradients, and refuse to mix
//     two such tapes (ErrKind); without gradients the result is a new
//     tensor of no tape, so collected distributions outlive the tapes of
//     their steps.
//   - Measured with the tensor package of this commit: its binary
//     operations (Add, Sub, Mul, Div), Where and the …Axis reductions
//     allocate one small object per call (a variadic slice and a string
//     passed to error paths), so a Normal step and a Categorical loss step
//     allocate 3 to 6 times in steady state, all of them there;
//     TestSteadyStateAllocations checks that the distributions add none,
//     and a Categorical's collection step (Sample and LogProb) allocates
//     nothing.
package distribution
