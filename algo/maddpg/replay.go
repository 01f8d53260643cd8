package maddpg

// replay is a ring buffer of joint transitions: every agent's observation,
// raw action, reward and terminated flag of one env step, side by side.
type replay struct {
	obs, next, act, rew, done []float32
	cap, n, pos               int
	sumObs, sumAct, agents    int
}

// slotView is the storage of the transition being written.
type slotView struct{ obs, next, act, rew, done []float32 }

func newReplay(capacity, sumObs, sumAct, agents int) replay {
	return replay{
		obs: make([]float32, capacity*sumObs), next: make([]float32, capacity*sumObs),
		act: make([]float32, capacity*sumAct), rew: make([]float32, capacity*agents),
		done: make([]float32, capacity*agents), cap: capacity,
		sumObs: sumObs, sumAct: sumAct, agents: agents,
	}
}

// slot returns the storage of the next transition; commit keeps it.
func (r *replay) slot() slotView {
	p := r.pos
	return slotView{
		obs:  r.obs[p*r.sumObs : (p+1)*r.sumObs],
		next: r.next[p*r.sumObs : (p+1)*r.sumObs],
		act:  r.act[p*r.sumAct : (p+1)*r.sumAct],
		rew:  r.rew[p*r.agents : (p+1)*r.agents],
		done: r.done[p*r.agents : (p+1)*r.agents],
	}
}

func (r *replay) commit() {
	r.pos = (r.pos + 1) % r.cap
	r.n = min(r.n+1, r.cap)
}
