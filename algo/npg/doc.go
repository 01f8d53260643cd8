// Package npg implements the natural policy gradient (Kakade, "A Natural
// Policy Gradient", 2001) with a GAE critic, as Tianshou's NPG trains it,
// an algo.OnPolicy algorithm for Discrete action spaces (a Categorical
// head) and Box action spaces (a Gaussian, actorcritic.NormalHead).
//
// # Overview
//
// [New] builds an [NPG] from a [Config] and the env's spaces: separate
// actor and critic networks (actorcritic.Net), the critic's Adam, and a
// policy.Actor. [ContinuousConfig] is the setting of Tianshou's Pendulum
// test; [DefaultConfig] the same with γ 0.99 for Discrete spaces, for which
// Tianshou has no NPG test. Each update (algo.Learner.StepAll, driven by
// the on-policy trainer) is
//
//   - Preprocess: values, returns and GAE advantages (standardized over the
//     collection), and the log-probabilities of the actions;
//   - UpdateRepeat: on each minibatch, the actor moves by ActorStepSize
//     along x = (F + δI)⁻¹g, g the gradient of the surrogate
//     mean(π/π_old·Â) and F the Fisher information, solved by CGSteps
//     iterations of the conjugate gradient; then the critic takes
//     CriticIters Adam steps on mean((G − V)²).
//
// NPG embeds actorcritic.Natural, which it shares with TRPO (package
// trpo); the two differ only in the step along x.
//
// # Invariants
//
//   - An update allocates nothing once a collection of the same length has
//     been seen (locked by algotest.CheckOnPolicy for both heads).
//   - Save writes the networks, the critic's Adam, the random sources and
//     the counters; a loaded NPG continues bit for bit.
//   - Bad batches are errors; a diverged policy (NaN after a step) is an
//     error.
//
// # Aliasing
//
// Preprocess stores "v_s", "returns", "adv" and "logp_old" in the batch as
// arrays that share the NPG's memory, overwritten by its next Preprocess.
// The statistics map is reused.
//
// # Decisions
//
//   - Fisher-vector products are exact and analytic, F v = Jᵀ M J v / k,
//     not a double backward: the tensor package has no gradients of
//     gradients, and adding them would mean a differentiable backward for
//     every op. J v comes from a forward-mode pass through the actor's
//     layers (nn.Linear and the identity, ReLU, tanh and sigmoid
//     activations, their derivatives taken at the recorded forward pass),
//     M is the KL divergence's Hessian in the distribution's parameters
//     (diag(p) − ppᵀ for a Categorical, 1/σ² for a Gaussian mean, 2 for
//     each log σ), and Jᵀ(M J v) is one backward pass of the tape through a
//     forward pass recorded once per minibatch. Other layers are refused by
//     New with their type named. The product is checked against the
//     explicit Fisher and against the KL's finite difference.
//   - The actor's loss is the ratio form −mean(π/π_old·Â) (TRPO's); its
//     gradient at the collecting policy equals that of Tianshou's NPG loss
//     −mean(log π·Â), and differs from it in later passes over a
//     collection.
//   - The actor and critic must be separate networks (net.shared false):
//     the critic's optimizer trains the critic alone.
//   - State-dependent exploration (gSDE) is refused: its Fisher has
//     state-dependent σ terms the product does not cover.
//   - The step size stays Tianshou's 0.5 by default. On
//     MountainCarContinuous it is too small, not too large: until an
//     episode reaches the flag the rewards hold only the action cost, each
//     step shrinks σ (the update's "sigma" statistic falls from 1 to 0.006
//     in 200k steps), and steps of KL 0.001–0.005, below TRPO's bound,
//     move the mean too slowly to find a swinging policy before the noise
//     is gone. TRPO's steps, up to 2.5 along the same direction, find one;
//     NPG's preset for that env takes step 2 (LEARNING.md). The Fisher
//     product was checked for the cause first and is the Gaussian KL's
//     Hessian.
package npg
