// Package policy provides the acting half of a reinforcement-learning agent,
// Tianshou's Policy: the Policy interface, the Q-learning policy and the
// stochastic actor, action mapping for Box spaces, and compute-action for
// one observation.
//
// # Overview
//
// A [Policy] maps a batch of observations (and an optional hidden state) to
// actions with Act, which is the collector's acting interface
// (collector.Policy): Tianshou's forward, followed by add_exploration_noise
// when the collector explores. Policies own no optimizer: the algorithm
// (package algo) that trains a policy holds its optimizers and target
// networks and changes the networks the policy acts with.
//
//   - [Q] acts with the action of largest Q-value over a Discrete space, and
//     ε-greedily when exploring (εTrain or εTest by the training-step flag,
//     changed on a schedule by the algorithm with SetEps): DQN's policy.
//   - [Actor] samples from the distribution a [Head] makes of its network's
//     output ([CategoricalHead] for Discrete spaces; continuous heads for Box
//     spaces), or takes its mode when evaluating with DeterministicEval: the
//     actor of PG, A2C and PPO. Learners get the distribution of a training
//     batch, with gradients, from Actor.Dist.
//   - [Deterministic] acts with a deterministic actor's raw actions and adds
//     exploration [Noise] ([Gaussian], [OU]) while collecting training
//     data: DDPG's and TD3's policy. OU noise keeps its state per env in the
//     collector's hidden state, which resets at each env's episode start.
//   - [BoxMap] maps a continuous policy's raw actions to a Box (clip, tanh,
//     rescale from [−1, 1]), Tianshou's map_action; policies that map
//     actions implement [ActionMapper], which collectors use.
//   - [Hold] makes ε-greedy exploration temporally extended (εz-greedy):
//     an exploring env keeps its random action for a duration drawn from a
//     truncated zeta distribution. Q takes it with SetHold; the DQN family,
//     BDQN and discrete SAC expose it as their ez_greedy setting.
//   - [ComputeAction] acts on a single observation.
//   - [DiscreteActTo] and [BoxActTo] give a policy the action array under
//     "act" in its destination batch, reused from call to call: the policies
//     here and those of the algorithms with a policy of their own
//     (behaviour cloning, BCQ) write their actions through them.
//
// Networks are called through nn.Caller with named inputs looked up in the
// observation batch ([Network]; [ObsNet] wraps a Layer that takes "obs"),
// so Dict observations reach networks that name their keys.
//
// Action masks (env.NewMasked, or "action_mask" in the info) restrict Q
// and Actor over a Discrete space to the allowed actions: [Mask] reads
// them and sets forbidden logits to −∞, [ArgMaxValid] picks the best
// allowed Q-value, and exploration draws uniformly among allowed actions.
// [NewObsNet] gives the network of a masked space the real observation
// alone ([MaskedObsNet] reads "obs.obs").
//
// # Invariants
//
//   - The training-step flag (SetTrainingStep, Tianshou's
//     is_within_training_step) decides sampling versus the most likely
//     action and which ε applies; explore decides whether exploration noise
//     is added at all. Trainers set the flag on while collecting training
//     data and off for test episodes; a collector's Config.Explore gives
//     explore.
//   - Actions are written under "act" in the policy's form: int64 [k] for a
//     Discrete space (the space's start added), float32 [k, m] for a Box of
//     shape [m]; ActionMapper turns them into env actions.
//   - Act does not allocate in steady state (same destination batch and
//     observation arrays as the previous call): a no-grad tape is reset and
//     reused, nn.Caller caches its input tensors, the distribution is
//     reused, and the action arrays in the destination are overwritten
//     (locked by AllocsPerRun tests).
//   - Bad observations are errors wrapping ErrObs; networks whose output
//     does not fit the action space give ErrConfig.
//
// # Aliasing
//
// Act writes into the destination's arrays, which stay the policy's memory
// until the next call; it keeps no reference to the observation batch.
// Params returns the networks' own tensors (what a best-policy file holds),
// and Actor.Dist a distribution recorded on the caller's tape, valid until
// that tape is reset and the next Dist call.
//
// # Decisions
//
//   - One method, Act(dst, obs, state, explore), instead of Tianshou's forward
//     plus add_exploration_noise plus map_action: it is the collector's
//     interface, so a policy is handed to a collector as it is, and the
//     noise and mapping need the same arrays anyway. Mapping stays a separate,
//     optional interface (ActionMapper) because the buffer stores the
//     policy's form and the env needs the other.
//   - The flag is named SetTrainingStep, not SetTraining, to keep it apart
//     from the networks' training mode (nn.SetTraining: dropout, noisy
//     layers), as Tianshou keeps is_within_training_step apart from torch's
//     train().
//   - ε-greedy draws one uniform number per row and, for the rows that
//     explore, one action among all n (the greedy one included), which is
//     Tianshou's distribution (it argmaxes random numbers over the actions).
//   - Temporally extended exploration (Hold) is one state machine shared by
//     every discrete policy that explores with random actions, not an
//     exploration per algorithm: its state per env (remaining steps and the
//     held action, int64) is the policy's hidden state, so the collector
//     zeroes it when an env's episode starts and saves it with its own
//     state, and Hold keeps nothing between calls but its table. Durations
//     come from the inverse of the truncated zeta distribution function
//     (one uniform number per draw, exact for any μ ≥ 0) rather than
//     Devroye's rejection sampler for the untruncated law, whose rare very
//     long draws would outlast every episode. The random action is drawn
//     when the hold starts and kept, as Dabney et al. (2021) do; where a
//     mask later forbids it, that step takes a random allowed action.
//     Random actions drawn anew at every step average out to no push on
//     MountainCar; held ones carry episodes to the flag, which is how BDQN
//     and discrete SAC meet their bars there (LEARNING.md).
//   - A Head is a factory of distributions (New) plus a setter (Set) rather
//     than a function returning a distribution: distributions are reusable
//     values, and acting and learning each keep their own so that neither
//     overwrites the other's.
//   - Discrete actions are stored as int64 (the dtype of env.Discrete) rather
//     than the category index as float32 that distributions use: the buffer
//     and the env then see the space's own values.
package policy
