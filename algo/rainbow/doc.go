// Package rainbow implements Rainbow (Hessel et al., "Rainbow: Combining
// Improvements in Deep Reinforcement Learning", 2018) without its Atari
// specifics, as Tianshou does: C51's categorical returns with a dueling
// head of noisy layers, n-step returns, a target network and prioritized
// replay, as an algo.OffPolicy algorithm.
//
// # Overview
//
// [New] builds a Rainbow from a [Config] and the env's spaces. The network
// is an MLP trunk (or the Nature CNN) followed by a dueling head whose
// value stream gives NumAtoms logits and whose advantage stream gives
// NumAtoms per action, combined atom by atom (nn.Dueling with Atoms); every
// layer of the head is an nn.NoisyLinear with factorised Gaussian noise
// (Fortunato et al., 2018). The update cycle is C51's (algo/categorical,
// which both share: the n-step projected Bellman target, the cross-entropy
// loss, priorities by that loss), and at the start of every cycle the
// online and target networks draw new noise, which the update uses and the
// policy keeps until the next cycle.
//
// While collecting training data the policy acts through the noisy layers,
// and ε-greedily on top of them as Tianshou's test does (EpsTrain 0 leaves
// the noise alone, the paper's form); while testing (the training-step flag
// off) the layers use their mean weights and ε is EpsTest.
//
// Prioritized replay lives in the buffer: the command line's rainbow runs
// use a prioritized vector buffer (α 0.6, β 0.4) by default, and Postprocess
// anneals β to BetaFinal over BetaAnnealSteps env steps.
//
// # Invariants
//
//   - The target network starts as a copy of the online network, noise
//     included.
//   - An update cycle (new noise, sample, n-step projected targets, update,
//     target update) allocates nothing in steady state (locked by an
//     AllocsPerRun test).
//   - Save writes every piece of state (networks with their current noise,
//     Adam's moments, the random sources of the policy and of the noise,
//     counters), so Load into a Rainbow of the same configuration continues
//     bit for bit (tested).
//
// # Aliasing
//
// As C51's: Preprocess stores "returns" and "target_dist" as memory of the
// Rainbow, and the statistics map Update returns is reused.
//
// # Decisions
//
//   - DefaultConfig is Tianshou's CartPole test (test/discrete/test_rainbow.py):
//     a trunk of four hidden layers of 128, one noisy layer per dueling
//     stream with σ₀ 0.1, 51 atoms over [−10, 10], γ 0.9, 3-step returns, a
//     hard target update every 320 gradient steps, lr 1e-3; β from 0.4 to 1
//     as in its prioritized variant (which anneals between 10k and 50k env
//     steps; here linearly over the first 50k).
//   - ε on top of the noise by default, as in Tianshou's test (ε 0.1 while
//     training, 0.05 while testing), although noisy nets replace ε-greedy
//     exploration in the paper: on CartPole with the noise alone (σ₀ 0.1 or
//     0.5) the policy settles on one action in the first updates and its
//     training and test returns stay at that action's 9.4 for 24k–80k env
//     steps, while with ε it solves the task within about 12k. The untried
//     action keeps the support's mean while the tried one's expected return
//     rises, and the noise of the head's layers moves the expected returns
//     far less than that gap.
//   - New noise once per update cycle, for both networks, before the
//     targets are computed, so the target and the loss of one update see one
//     draw (Tianshou draws in learn, after its targets); collection keeps
//     the latest draw, as in Tianshou.
package rainbow
