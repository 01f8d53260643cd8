// Package actorcritic holds what gorl's policy-gradient algorithms share:
// networks with an actor and a critic head, the action heads, the storage of
// an on-policy collection, generalized advantage estimation, the optimizer
// wiring, running statistics, the configuration pieces and the base state
// with its Save, Load and Schedule. REINFORCE (package pg), A2C (package
// a2c) and PPO (package ppo) are siblings built on it; none imports another.
//
// # Overview
//
//   - [Net]: a trunk reading the observations (named inputs), an actor layer
//     to the head's input, and optionally a critic layer to the state value;
//     with a shared trunk one pass serves both heads (DistValue). [NewNet]
//     builds MLPs from a [NetConfig], [NewNetFrom] takes the user's layers.
//   - Heads (policy.Head): policy.CategoricalHead for a Discrete action
//     space, and [NormalHead], a diagonal Gaussian over Box actions with a
//     state-independent, trained log σ; NewNet picks one from the action
//     space.
//   - [Rollout]: a collection as tensors, with Tianshou's shuffled
//     minibatches (split with merge_last) gathered on the tape.
//   - [GAE]: the critic's values, the returns and the advantages of a
//     collection (Tianshou's A2C._add_returns_and_advantages, which its PPO
//     inherits), with optional return scaling.
//   - [RunningMeanStd]: running statistics of returns.
//   - [Optimizer] and [Training]: Adam with gradient-norm clipping and a
//     linear learning-rate decay over env steps (algo.Scheduled).
//   - [Base]: the state of an on-policy algorithm (networks, optimizer,
//     actor policy, random sources, [Counters], update scratch) with the
//     methods the algorithms share: Policy, Schedule, Postprocess, Save and
//     Load. [Critic] adds the GAE of an actor-critic algorithm; its Init is
//     the constructor path A2C and PPO share, its Estimate the start of their
//     Preprocess.
//   - [Natural]: the update NPG (package npg) and TRPO (package trpo)
//     share: exact Fisher-vector products (a forward-mode pass through the
//     actor's layers and a backward pass of the tape), [ConjugateGradient],
//     the natural step along (F + δI)⁻¹g with a fixed size or TRPO's
//     KL-bounded backtracking ([NaturalStep]), and the critic's own Adam
//     steps; [NaturalConfig] holds their shared settings. [Standardize]
//     standardizes advantages (PPO per minibatch, NPG and TRPO per
//     collection).
//   - Off-policy actor-critics for Box actions (DDPG, TD3, SAC; REDQ and
//     others build on the same pieces): [DeterministicActor] (MaxAction·tanh
//     of an MLP), [SquashedHead] (the tanh-squashed Gaussian of SAC, log σ
//     state-dependent or free, clamped to [LogStdMin, LogStdMax]),
//     [QCritic] (Q(s, a) on the joined observation and action, or the
//     action joined after the first layer), [Critics] (an ensemble of N with
//     targets, one optimizer, the minimum of the targets over all or a
//     subset, Polyak updates), [Continuous] (their shared settings),
//     [QBatch], [ReadObs] and [NextObs] (a batch's columns as tensors), and
//     [ContinuousDims], which rejects other spaces naming them. Their
//     returns are algo.QReturns; their exploration noise is policy's.
//   - For the offline actor-critics (TD3+BC in package td3bc, continuous
//     BCQ in package bcqc): [ObsNorm], a fixed per-feature normalization
//     fitted to a dataset, which [Deterministic.NormalizeObs] puts in front
//     of the actor, the critics and the policy; Deterministic's ActorLoss
//     hook for an actor loss other than −mean Q; [MaxAction], the bound of
//     an action space [−h, h] for algorithms acting in the env's units; and
//     [Smooth], the target policy smoothing TD3 and TD3+BC share.
//   - The entropy temperature of SAC, REDQ and discrete SAC: [Alpha]
//     (α fixed or tuned towards a target entropy, [AlphaLoss]) and
//     [Temperature], its settings.
//   - Configuration: [NetConfig], [Training], [DefaultPolicy], and
//     [OnPolicy], the settings A2C and PPO share, embedded in their Configs
//     so that its fields sit at the top level of their JSON.
//
// The policy is a policy.Actor acting with the trunk and the actor layer:
// it samples while the training-step flag is on and, with DeterministicEval
// (the default of DefaultPolicy), takes the most likely action when
// testing. Box actions are mapped by policy.BoxMap (clipped to [−1, 1] and
// scaled to the bounds by default).
//
// # Invariants
//
//   - A Discrete action a is the category a − start of the space; the buffer
//     keeps the env's values. Rollout.Load returns an error for actions
//     outside the space, missing keys and observations that are not numeric
//     arrays, before any parameter changes.
//   - Once a collection of the same length and observation structure has
//     been seen, Rollout.Load, GAE.Compute, the Net's forward methods and
//     Optimizer.Step allocate nothing: the algorithms' updates are locked at
//     zero allocations by their tests.
//   - All randomness of Base comes from two sources seeded from the
//     constructor's rng: the policy's samples and the minibatches' order.
//     Save writes them with the networks, Adam's state and the Counters, so
//     a loaded algorithm continues bit for bit.
//   - Returns and statistics are accumulated in float64 and stored as
//     float32, the networks' precision.
//
// # Aliasing
//
// Rollout.Store puts arrays sharing the Rollout's columns into a batch, and
// Rollout.ObsRows returns a batch of the Rollout overwritten by its next
// call; Column tensors keep their memory while the collection's length stays
// the same. Net's forward methods return a distribution that is memory of
// the Net, reset by the next call, and tensors of the caller's tape. Base's
// fields are the algorithm's own objects.
//
// # Decisions
//
//   - One package for the shared pieces, named for what it holds, rather
//     than the REINFORCE package exporting them: each algorithm is a sibling
//     that reads top to bottom, and algorithms to come (off-policy actor-
//     critics) take their heads and critics from here without importing
//     another algorithm. A new head is a policy.Head next to NormalHead
//     (state-dependent log σ, tanh-squashed Normal, deterministic), picked by
//     NewNet or given to NewNetFrom; Net needs no change for it.
//   - Minibatches are Tianshou's Batch.split(size, shuffle=True,
//     merge_last=True): ⌊N/size⌋ minibatches, the remainder joining the last
//     one (2,000 transitions in minibatches of 64: 30 of 64 and one of 80).
//     Tianshou's loop also merges the last two full minibatches when size
//     divides N exactly (its test is idx + 2·size ≥ N); that quirk is not
//     reproduced.
//   - A minibatch is gathered on the tape (Tape.IndexSelect) from tensors
//     holding the whole collection, filled once per update, rather than by
//     Batch.Split: a split copies the batch and yields nd arrays, which
//     nn.Caller converts into a new tensor whenever the array changes, so
//     every minibatch would allocate. The copy of the observations into the
//     Rollout costs one pass over them per update.
//   - The networks are a trunk and two layers rather than a policy.Actor
//     network plus a separate critic network: with Tianshou's shared trunk
//     the features are computed once per minibatch for both heads, which
//     makes a PPO update markedly cheaper than with separate MLPs of the
//     same sizes (figures in docs/design.md).
//   - State-dependent exploration is a head of its own, SDEHead, which reads
//     the actor's last hidden features and owns the mean layer, rather than
//     a mode of NormalHead: its input, its parameters ([h, m] log σ) and its
//     state (the exploration matrices) all differ. Net asks a head with
//     InputWidth for its input width. Without an episode-start signal in the
//     acting interface, the matrices are redrawn by count (SDESampleFreq
//     samples) only: Stable-Baselines3 redraws at every collection and every
//     sde_sample_freq steps, so a sample frequency equal to the collection's
//     length reproduces its default. Without gSDE, PPO with rl-zoo's
//     MountainCarContinuous settings reached the goal in no training episode
//     within 20k steps; with it, four of five seeds pass the bar.
//   - NormalHead lives here because package policy offers only
//     CategoricalHead; it is a policy.Head and would move there unchanged.
//   - Deterministic evaluation is the default (DefaultPolicy; Tianshou's PPO
//     test sets it, its REINFORCE and A2C tests do not): a test of the most
//     likely actions measures what the policy learned, not its exploration
//     noise.
//   - The learning-rate decay counts env steps (the argument of Schedule,
//     which the trainers call) rather than updates as Tianshou's LambdaLR
//     does: a resumed run gets the same rate from the same counter, and the
//     length reads in the same unit as the trainer's StepPerEpoch.
//   - The critic is evaluated over the whole collection in one pass
//     (Tianshou splits it into chunks of 256): the tape's memory for one pass
//     over 2,000 CartPole transitions is a few hundred kilobytes.
//   - Return scaling follows Tianshou: the critic learns returns divided by
//     the running standard deviation s of the returns, values are multiplied
//     by s before estimating advantages, and the mean is not subtracted
//     (OpenAI Baselines' value normalization, which Tianshou found to work
//     as well or better).
//   - Critics evaluates its N critics one after the other, not in one
//     batched pass (an op running the first layer as one GEMM over the
//     critics' joined weights and the later layers as one GEMM per critic
//     in one operation, removed after the measurement). The batched pass was measured on REDQ's update at 2, 4 and
//     10 critics, batch and widths 64 and 256, with OpenBLAS and with gonum,
//     and was slower in all but one case: the saved per-operation overhead
//     is small next to the matrix products, and it is outweighed by the
//     interleaved [B, N, out] layout (strided GEMM operands, a copy to split
//     the values per critic) and by the copy of the joined weights. Figures
//     in docs/design.md.
package actorcritic
