package algo

import "github.com/gorl/gorl/tensor"

// ConservativePenalty records on tp the regularizer of discrete
// conservative Q-learning (Kumar, Zhou, Tucker and Levine, "Conservative
// Q-Learning for Offline Reinforcement Learning", 2020, the CQL(H) form),
//
//	mean over the batch of log Σₐ exp Q(s, a) − mean over the batch of Q(s, aₜ),
//
// for the Q-values q [B, n] of the n actions and qa [B], the values of the
// logged actions (q gathered at them): it pushes down the values of all
// actions, softly the largest, and up those of the data. Discrete CQL and
// CRR add it to their losses, as Tianshou does (min_q_weight).
//
// It panics with an *Error wrapping ErrShape if q is not a matrix.
func ConservativePenalty(tp *tensor.Tape, q, qa *tensor.Tensor) *tensor.Tensor {
	if q.NDim() != 2 {
		panic(&Error{Kind: ErrShape, Msg: "ConservativePenalty: Q-values are not [B, n]"})
	}
	return tp.Sub(tp.Mean(tp.LogSumExp(q, 1, false)), tp.Mean(qa))
}
