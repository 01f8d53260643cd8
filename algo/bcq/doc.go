// Package bcq implements discrete batch-constrained deep Q-learning (BCQ;
// Fujimoto, Conti, Ghavamzadeh and Pineau, "Benchmarking Batch Deep
// Reinforcement Learning Algorithms", 2019), as Tianshou's
// DiscreteBCQPolicy: an algo.OffPolicy algorithm for the offline trainer.
//
// # Overview
//
// [New] builds a BCQ from a [Config] and the env's spaces: a Q network, a
// target network and an imitation network G (MLPs), one Adam over the Q and
// imitation networks, and a policy acting among likely actions. An action a
// is eligible in s when G(a|s)/max G(·|s) ≥ τ (Config.Threshold), computed
// from the logits as logit(a) − max logit ≥ log τ. The update cycle
// (algo.Learner, or the trainer's offline loop over a buffer loaded with
// buffer.Load):
//
//   - Preprocess: n-step returns Gₜ = Σₖ₍ₘ γᵏrₜ₊ₖ + γᵐQ′(sₜ₊ₘ, a′) over
//     the buffer (algo.QReturns over algo.NStep: windows stop at episode ends, terminated steps
//     do not bootstrap), with a′ the eligible action of largest online
//     Q-value in sₜ₊ₘ and Q′ the target network; stored as "returns".
//   - Update: one Adam step on Huber(Q(s, a) − G) + CE(G(·|s), a) +
//     λ·mean(logits²), all means over the batch (λ = ImitationPenalty); then
//     the target network is copied every TargetUpdateFreq steps or moved by
//     Polyak averaging with Tau.
//   - Postprocess: nothing.
//
// The policy acts with the eligible action of largest Q-value; with
// exploration on (a collector's Explore) it takes a uniformly random action
// with probability ε (Config.Eps, Tianshou's eval_eps), whatever the
// training-step flag.
//
// # Invariants
//
//   - The action with the largest imitation probability is always eligible
//     (τ ≤ 1), so acting and the targets always find an action, unless the
//     logits are NaN: that is an error wrapping ErrDiverged.
//   - The target network starts as a copy of the Q network; the three
//     networks share no tensor (checked by NewWithNetworks).
//   - An update cycle (sample, n-step returns with constrained targets,
//     update, target update) and acting allocate nothing in steady state
//     (locked by AllocsPerRun tests).
//   - Save writes every piece of state (the three networks, Adam's moments,
//     the policy's random source, the update counter), so Load into a BCQ of
//     the same configuration continues bit for bit, and the offline
//     trainer's checkpoints resume exactly (tested with the trainer).
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "returns" as an array that is memory of the BCQ,
// overwritten by the next Preprocess. The statistics map Update returns is
// reused. Network, Target and Imitator return the networks themselves; the
// policy's Params are the Q and imitation networks' own tensors, prefixed
// "q" and "imitator".
//
// # Decisions
//
//   - The Q and imitation networks are two MLPs, as in the authors'
//     implementation for low-dimensional observations (FC_Q), rather than
//     heads on a shared trunk as in Tianshou's CartPole test: a Network is
//     one model, and two networks sharing a trunk would put its tensors into
//     Adam twice. A shared trunk is therefore not supported (NewWithNetworks
//     refuses networks that share a tensor).
//   - The imitation logits are the network's raw output (Tianshou); the
//     authors' implementation applies a ReLU to them first, which makes
//     every negative logit equal and is not in the paper.
//   - The Q loss is the Huber loss with δ = 1 (PyTorch's smooth L1, both
//     Tianshou and the authors), not configurable. Importance weights of a
//     prioritized buffer are not applied and priorities are not updated, as
//     in Tianshou: offline data is sampled uniformly.
//   - The hard target update copies after every TargetUpdateFreq-th gradient
//     step, as package dqn does (Tianshou copies at the start of the next
//     update, which is the same sequence of targets).
//   - DefaultConfig is Tianshou's CartPole test (test_discrete_bcq.py):
//     threshold 0.6, λ = 0.01, lr 3e-4, γ 0.99, 3-step returns, a copy every
//     320 steps. The threshold matters: on the CartPole data of three seeds
//     (20,000 steps of a DQN at ε = 0.1), τ = 0.6 reached a mean test return
//     of 195 within 2,000 updates on all three, the paper's τ = 0.3 within
//     2,000–6,000, and τ = 0 (unconstrained offline DQN) never (best 14–101
//     in 10,000 updates). An update runs three networks on obs_next and two
//     with gradients on obs. On CartPole (gorl bench offline-cartpole),
//     2,000 updates (4,000 on one seed) on 20,000 transitions collected with
//     ε = 0.1 by a DQN that had reached a mean test return of 198–270 gave
//     mean test returns of 202–432 over 100 episodes on 5 of 5 seeds.
package bcq
