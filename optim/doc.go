// Package optim provides optimizers with PyTorch's update rules (SGD with
// momentum, dampening and Nesterov; Adam, AMSGrad and AdamW; RMSprop with
// centering and momentum), gradient-norm clipping, and learning-rate
// schedules, for the parameters of package nn's modules.
//
// # Overview
//
// An optimizer is made from a module's Params and a Config
// (DefaultAdamConfig and the others give PyTorch's defaults). A training step
// reads
//
//	tp.Reset()
//	loss := tp.MSE(net.Forward(&tp, x), y)
//	opt.ZeroGrad()
//	tp.Backward(loss)
//	optim.ClipGradNorm(ps, 10) // optional
//	opt.Step()
//
// A schedule is a value with an At(step) method; apply it with
// opt.SetLR(s.At(step)) before each step.
//
// Save and Load write and read an optimizer's whole state (moments, step
// counts, configuration with the current learning rate) in the safetensors
// format, so that a run saved with nn.Save and opt.Save and loaded into a new
// network and optimizer continues bit for bit as if it had not stopped.
//
// # Invariants
//
//   - Buffers (nn.Param.Buffer) are never optimized. Tensors without a
//     gradient at a Step are skipped and their step count does not advance,
//     as in PyTorch; the bias corrections use each tensor's own count.
//   - Updates are computed in float32 in the order of PyTorch 1.13's
//     single-tensor implementations (Adam's moments with mul and add, not
//     2.x's lerp), with float64 scalars where PyTorch uses Python floats
//     (bias corrections, step sizes), so small cases match the documented
//     formulas to float32 rounding. Adam's last line is rearranged to one
//     division per element (see Adam).
//   - Results do not depend on the platform or build tags: Adam's assembly
//     kernel and its Go loop compute bit-identical values.
//   - Step, ZeroGrad and ClipGradNorm allocate nothing (locked by AllocsPerRun
//     tests).
//   - Invalid hyperparameters are errors from New… and Load (ErrConfig); a
//     state file for another algorithm, configuration kind or parameter set is
//     ErrState, a malformed file nn.ErrFormat. SetLR with a negative or
//     non-finite rate, ClipGradNorm with a limit ≤ 0 and StepDecay with Every
//     < 1 panic, as bugs in the calling code.
//
// # State file
//
// The state is a safetensors file (see nn.Save) holding, for every optimized
// tensor p and state buffer b of the algorithm, a tensor named "p.b" of p's
// shape (Adam: exp_avg, exp_avg_sq and, with AMSGrad, max_exp_avg_sq; SGD with
// momentum: momentum_buffer; RMSprop: square_avg, grad_avg when centered,
// momentum_buffer with momentum), and the metadata "optimizer" (adam, sgd or
// rmsprop), "config" (the Config as JSON, with the current learning rate) and
// "steps" (the step counts as a JSON array in parameter order). Load checks
// all of it before changing anything, and adopts the saved configuration as
// PyTorch's load_state_dict adopts the saved parameter groups; the saved
// configuration must need the same buffers (AMSGrad, momentum, centering).
//
// # Decisions
//
//   - Moments and other decaying state are flushed to zero when they fall
//     below the smallest normal float32. The state of a weight whose gradient
//     is exactly 0 (a dead ReLU unit) decays geometrically through the
//     subnormal range, and x86 arithmetic on subnormals takes microcode
//     assists (Go does not set flush-to-zero): Adam steps over weights with
//     zero gradients and tiny moments ran dozens of times slower without the
//     flush. The flush keeps the bits unless the exponent field is zero,
//     without a branch, which more than halved the time of Adam's step
//     against a compare-and-branch. The results differ from PyTorch's only
//     for values below 1.2e-38.
//   - Adam's update runs, on amd64, in an SSE2 assembly kernel (four
//     elements per instruction; every amd64 processor has SSE2, so nothing is
//     detected at run time), with the Go loop for the last len mod 4
//     elements, AMSGrad, L2 weight decay, other platforms and the build tag
//     gorl_noasm. A square root and a division per element occupy the
//     divider, which scalar code cannot share between elements: the best Go
//     loop, with the bias corrections folded into two constants (one
//     division instead of two) and the weight-decay factor into the same
//     pass, was several times slower per parameter than the kernel
//     (BenchmarkStep; the Nature CNN's moments and weights do not fit in the
//     L2 cache, which narrows the gain there). Where the processor has
//     AVX2 (detected once with CPUID), an AVX2 kernel with the same
//     operations in the same order takes the multiples of eight and the SSE
//     kernel the rest, so the bits do not depend on which ran (tested
//     against the Go loop for both). On an earlier machine the wider kernel
//     gained less than a third, the divider limiting both; on the AMD cores
//     of the current machine it halved the MLP's Adam time per parameter,
//     which is a tenth of DQN's CartPole update (figures in docs/design.md).
//   - AdamW is Adam with AdamConfig.Decoupled (DefaultAdamWConfig), one type
//     with one update loop instead of two copies.
//   - Step counts are kept per tensor and saved as integers in the metadata
//     (PyTorch keeps a float32 tensor per parameter, exact only to 2²⁴ steps).
//   - SGD's default learning rate is 1e-3, PyTorch 2's (1.13 had none).
//   - Schedules are plain values computing the rate from a step counter, not
//     objects wrapping the optimizer: they hold no state to save, and a resumed
//     run gets the same rate from the same counter. Their closed forms equal
//     PyTorch's StepLR and CosineAnnealingLR (without restarts) and CleanRL's
//     linear annealing.
//   - ClipGradNorm computes the 2-norm only (the norm RL algorithms clip) and
//     accumulates it in float64; like PyTorch without error_if_nonfinite it
//     lets a NaN norm turn the gradients into NaN rather than hide it.
package optim
