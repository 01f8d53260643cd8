// Package crr implements discrete critic regularized regression (CRR;
// Wang, Novikov, Żołna et al., "Critic Regularized Regression", 2020), as
// Tianshou's DiscreteCRR: an algo.OffPolicy algorithm for the offline
// trainer.
//
// # Overview
//
// [New] builds a [CRR] from a [Config] and the env's spaces: an actor (the
// logits of a Categorical) and a critic Q(s, ·), MLPs, with target copies
// of both, one Adam over the actor and the critic, and a policy.Actor. The
// update cycle (algo.Learner, or the trainer's offline loop over a buffer):
//
//   - Preprocess: n-step returns Gₜ = Σₖ₍ₘ γᵏrₜ₊ₖ + γᵐ Σₐ π′(a|sₜ₊ₘ)
//     Q′(sₜ₊ₘ, a) with the target actor π′ and critic Q′ (algo.QReturns:
//     windows stop at episode ends, terminated steps do not bootstrap).
//   - Update: one Adam step on −mean(f(Â)·log π(a|s)) + ½·mean((Q(s, a) −
//     G)²) + w·(mean log Σₐ′ exp Q(s, a′) − mean Q(s, a)), with the
//     advantage Â = Q(s, a) − Σₐ′ π(a′|s)·Q(s, a′) and the filter f: Exp
//     min(exp(Â/β), RatioUpperBound), Binary 1[Â > 0], or All 1; then the
//     targets are copied every TargetUpdateFreq steps (or moved with Tau).
//   - Postprocess: nothing.
//
// The policy samples from the actor's Categorical in training steps and,
// with DeterministicEval, takes its most likely action otherwise.
//
// # Invariants
//
//   - The targets start as copies; the four networks share no tensor
//     (checked by NewWithNetworks).
//   - An update cycle and acting allocate nothing in steady state (locked
//     by the package's tests).
//   - Save writes every piece of state (the networks and targets, Adam's
//     moments, the policy's random source, the update counter), so Load
//     into a CRR of the same configuration continues bit for bit.
//   - Bad batches are errors that leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "returns" as an array that is memory of the CRR,
// overwritten by the next Preprocess. The statistics map Update returns is
// reused. Params returns the networks' own tensors.
//
// # Decisions
//
//   - The filter's weight f(Â) is a constant of the actor's loss, as in the
//     paper (the weight of a weighted maximum likelihood). Tianshou computes
//     it from the critic's values and the actor's probabilities on the
//     graph, so that with the Exp filter some gradient of the actor's loss
//     reaches the critic and the actor through the weight; here it does not.
//   - The actor and the critic are two MLPs (Hidden each), not heads on one
//     shared trunk as in Tianshou's CartPole test: one Adam steps them, and a
//     shared trunk would have to be one network (see package bcq).
//   - The critic's target uses the n-step machinery of the Q-learning
//     algorithms with NStep 1 by default: Tianshou's one-step target, except
//     that a truncated episode bootstraps (Tianshou zeroes the target value
//     at every done, truncation included).
//   - The conservative penalty is algo.ConservativePenalty, shared with
//     discrete CQL: DiscreteCRR adds it with min_q_weight 10.
//   - DefaultConfig is Tianshou's CartPole test (test_discrete_crr.py) and
//     DiscreteCRR's defaults: hidden 64-64, lr 7e-4, γ 0.99, a copy every
//     320 steps, Exp with β 1 and bound 20, w 10; its offline trainer runs 5
//     epochs of 1,000 updates of 64 transitions with 100 test episodes.
package crr
