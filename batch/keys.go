package batch

// The keys of the transition schema, Tianshou's names, shared by the
// packages that write and read them. "Written by" names the package that
// stores the value; "read by" the main readers.
const (
	// KeyObs holds the observations acted on: an array [N, …], or a Batch
	// of such arrays for Dict and Tuple spaces. Written by the collector
	// (and by whoever builds a policy's input); read by policies, buffers
	// and algorithms.
	KeyObs = "obs"
	// KeyAct holds the actions: an array [N, …] in the policy's form.
	// Written by policies (and the collector's random actions); read by
	// the collector, buffers and algorithms.
	KeyAct = "act"
	// KeyRew holds the rewards, float64 [N]. Written by the collector;
	// read by buffers and the return computations.
	KeyRew = "rew"
	// KeyTerminated holds whether a step ended its episode in a terminal
	// state, bool [N]. Written by the collector; read by buffers.
	KeyTerminated = "terminated"
	// KeyTruncated holds whether a step ended its episode by a time limit,
	// bool [N]. Written by the collector; read by buffers.
	KeyTruncated = "truncated"
	// KeyDone holds terminated || truncated, bool [N]. Written by buffers
	// (never taken from the added batch).
	KeyDone = "done"
	// KeyObsNext holds the observations a step returned, in KeyObs's form.
	// Written by the collector (by buffers from the next step's obs when
	// they ignore obs_next); read by the return computations.
	KeyObsNext = "obs_next"
	// KeyInfo holds the steps' infos as a Batch. Written by the collector;
	// read by policies that take it.
	KeyInfo = "info"
	// KeyPolicy holds a policy's data to keep with the transition (a Batch
	// of N rows, such as log-probabilities). Written by policies; stored
	// by the collector and buffers.
	KeyPolicy = "policy"
	// KeyEnvID is the key under KeyInfo that holds the index of the env
	// that took each step, int64 [N], as in Tianshou's vector envs.
	// Written by the collector.
	KeyEnvID = "env_id"
	// KeyHiddenState is the key under KeyPolicy that holds the hidden
	// state a recurrent policy returned. Written by the collector.
	KeyHiddenState = "hidden_state"
	// KeyState holds a recurrent policy's hidden state in its output.
	// Written by policies; read by the collector, which passes it back.
	KeyState = "state"
	// KeyReturns holds the returns (the algorithm's regression target),
	// float32 [N]. Written by the algorithms' Preprocess; read by their
	// Update.
	KeyReturns = "returns"
	// KeyAdv holds the advantages, float32 [N]. Written and read by the
	// actor-critic algorithms.
	KeyAdv = "adv"
	// KeyVS holds the critic's values V(s), float32 [N]. Written and read
	// by the actor-critic algorithms.
	KeyVS = "v_s"
	// KeyLogpOld holds the log-probabilities of the actions under the
	// policy before the update, float32 [N]. Written and read by PPO.
	KeyLogpOld = "logp_old"
	// KeyWeight holds importance-sampling weights, float64 [N]. Written by
	// prioritized buffers' sampling; read by the algorithms' Update.
	KeyWeight = "weight"
	// KeyLogits holds a model's raw output (an array or a custom leaf such
	// as a tensor), as in Tianshou's model output.
	KeyLogits = "logits"
	// KeyDist holds an action distribution, a custom Leaf.
	KeyDist = "dist"
	// KeyLogProb holds the log-probabilities of the actions under KeyDist.
	KeyLogProb = "log_prob"
)
