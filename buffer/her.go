package buffer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// RewardFunc computes the rewards of relabelled transitions for a
// hindsight buffer: achieved and desired are the goals achieved after the
// step (obs_next.achieved_goal) and the new desired goals, both of shape
// [m, goal…], and the function stores the m rewards in rew (Tianshou's
// compute_reward_fn).
type RewardFunc func(achieved, desired *nd.Array, rew []float64)

// HERConfig configures hindsight experience replay (Andrychowicz et al.,
// "Hindsight Experience Replay", NeurIPS 2017) with the "future" strategy
// and online relabelling, as Tianshou's HERReplayBuffer does.
type HERConfig struct {
	// Horizon is the number of steps relabelled per sampled episode
	// segment (the maximum episode length); it must be ≥ 1.
	Horizon int `json:"horizon"`
	// FutureK is the paper's k: a sampled episode segment is relabelled
	// with probability 1 − 1/FutureK. 0 means 8 (Tianshou's default); it
	// must otherwise be ≥ 1.
	FutureK float64 `json:"future_k"`
	// Reward recomputes rewards; required to sample from the buffer
	// (SetRewardFunc sets it on a loaded buffer).
	Reward RewardFunc `json:"-"`
}

// Validate reports an invalid configuration as an error wrapping ErrValue.
func (c HERConfig) Validate() error {
	if c.Horizon < 1 {
		return errorf(ErrValue, "", fmt.Sprintf("HERConfig.Horizon must be ≥ 1, got %d", c.Horizon))
	}
	if c.FutureK != 0 && !(c.FutureK >= 1) || math.IsInf(c.FutureK, 0) {
		return errorf(ErrValue, "", fmt.Sprintf("HERConfig.FutureK must be finite and ≥ 1 (or 0 for 8), got %g", c.FutureK))
	}
	return nil
}

func (c HERConfig) futureK() float64 {
	if c.FutureK == 0 {
		return 8
	}
	return c.FutureK
}

// herState holds a hindsight buffer's configuration and the original
// values of the rows the last sampling relabelled.
type herState struct {
	horizon int
	futureK float64
	reward  RewardFunc
	// rows relabelled by the last sampling and their original values
	altered        []int
	goal, nextGoal *nd.Array // obs.desired_goal (and obs_next.desired_goal) rows
	rew            []float64
}

// restoreHER writes back the values the last relabelling changed, before
// anything else reads or writes the storage.
func (c *core) restoreHER() {
	h := c.her
	if h == nil || len(h.altered) == 0 {
		return
	}
	g := c.herColumn(obsDesired)
	g.st.put(h.altered, g.rowLen, h.goal, 0, g.rowLen)
	if h.nextGoal != nil {
		ng := c.herColumn(nextDesired)
		ng.st.put(h.altered, ng.rowLen, h.nextGoal, 0, ng.rowLen)
	}
	for k, i := range h.altered {
		c.rew[i] = h.rew[k]
	}
	h.altered, h.goal, h.nextGoal, h.rew = h.altered[:0], nil, nil, h.rew[:0]
}

func (c *core) herColumn(path string) *column {
	col, err := c.columnAt(path)
	if err != nil || col == nil {
		return nil
	}
	return col
}

// relabel applies HER's future strategy to the episodes of the drawn
// indices (Tianshou's rewrite_transitions), as the HER type documents.
func (c *core) relabel(indices []int, rng *rand.Rand) {
	h := c.her
	if h == nil {
		return
	}
	c.restoreHER()
	if len(indices) == 0 {
		return
	}
	if h.reward == nil {
		panic(errorf(ErrValue, "", "HER: no reward function (set HERConfig.Reward or call SetRewardFunc)"))
	}
	goal, ach := c.herColumn(obsDesired), c.herColumn(obsAchieved)
	nextGoal, nextAch := c.herColumn(nextDesired), c.herColumn(nextAchieved)
	if goal == nil || ach == nil || nextAch != nil && (nextGoal == nil || !slices.Equal(nextAch.row, goal.row)) ||
		!slices.Equal(ach.row, goal.row) || nextGoal != nil && !slices.Equal(nextGoal.row, goal.row) {
		return // no goals of one shape stored (possible only in a crafted file)
	}
	// Time order: by sub-buffer, then by age within it.
	age := func(g int) int {
		s := c.subOf(g)
		return s.off*2 + (g-s.off-s.next+s.size)%s.size
	}
	sorted := slices.Clone(indices)
	slices.SortFunc(sorted, func(a, b int) int { return age(a) - age(b) })
	m, hz := len(sorted), h.horizon
	traj := make([]int, hz*m)
	copy(traj, sorted)
	for t := 1; t < hz; t++ {
		for i := range m {
			traj[t*m+i] = c.next(traj[(t-1)*m+i])
		}
	}
	end := traj[(hz-1)*m:]
	future := make([]int, m)
	for i, g := range sorted {
		s := c.subOf(g)
		l := (end[i] - g + s.size) % s.size
		off := int(math.Round(rng.Float64() * float64(l)))
		future[i] = s.off + (g-s.off+off)%s.size
	}
	// Groups: runs of equal segment ends.
	var open, closing []int
	for i := range m {
		if i == 0 || end[i] != end[i-1] {
			open = append(open, i)
			if i > 0 {
				closing = append(closing, i-1)
			}
		}
	}
	closing = append(closing, m-1)
	chosen := rng.Perm(len(open))[:int(float64(len(open))*(1-1/h.futureK))]
	slices.Sort(chosen)
	// Rows to relabel and the row of the goal each takes.
	var rows, goalRows []int
	for _, gi := range chosen {
		f := future[closing[gi]]
		src := f // obs_next.achieved_goal[f]
		if nextAch == nil {
			src = c.next(f) // obs.achieved_goal of the step after f
		}
		seen := -1
		for t := range hz {
			r := traj[t*m+open[gi]]
			if r == seen {
				continue
			}
			seen = r
			rows = append(rows, r)
			goalRows = append(goalRows, src)
		}
	}
	if len(rows) == 0 {
		return
	}
	// Keep the originals.
	h.altered = append(h.altered[:0], rows...)
	h.goal = gatherRows(goal, rows)
	if nextGoal != nil {
		h.nextGoal = gatherRows(nextGoal, rows)
	}
	for _, r := range rows {
		h.rew = append(h.rew, c.rew[r])
	}
	// New goals.
	goalSrc := ach
	if nextAch != nil {
		goalSrc = nextAch
	}
	newGoals := gatherRows(goalSrc, goalRows)
	putRows(goal, rows, newGoals)
	if nextGoal != nil {
		putRows(nextGoal, rows, newGoals)
	}
	// New rewards, from the goal achieved after each step.
	var achieved *nd.Array
	if nextAch != nil {
		achieved = gatherRows(nextAch, rows)
	} else {
		after := make([]int, len(rows))
		for k, r := range rows {
			after[k] = c.next(r)
		}
		achieved = gatherRows(ach, after)
	}
	desired := gatherRows(goal, rows)
	rew := make([]float64, len(rows))
	h.reward(achieved, desired, rew)
	for k, r := range rows {
		c.rew[r] = rew[k]
	}
}

// gatherRows returns rows of col as a new array [len(rows), row…].
func gatherRows(col *column, rows []int) *nd.Array {
	a := nd.Zeros(col.arr.DType(), append([]int{len(rows)}, col.row...)...)
	col.st.gather(a, rows, col.rowLen)
	return a
}

// putRows writes the rows of src (contiguous, [len(rows), …]) into col,
// converting its dtype if needed.
func putRows(col *column, rows []int, src *nd.Array) {
	if src.DType() == col.arr.DType() && sameRow(src, 1, col.row) {
		col.st.put(rows, col.rowLen, src, 0, col.rowLen)
		return
	}
	for k, r := range rows {
		if err := col.arr.SetRow(r, src.Index(nd.I(k))); err != nil {
			panic(&Error{Kind: ErrType, Path: col.path, Msg: "HER: cannot store the relabelled goal", Err: err})
		}
	}
}

// HER is a Replay buffer with hindsight goal relabelling (Tianshou's
// HERReplayBuffer, the "future" strategy with online relabelling), for
// goal-based environments whose observations are Batches with
// observation, achieved_goal and desired_goal.
//
// Each sampling (SampleIndices with n > 0, Sample, SampleTo) sorts the
// drawn indices in time order and groups them by episode segment: the
// indices whose segment of Horizon steps (cut at the episode's end) ends
// at the same index. int(groups · (1 − 1/FutureK)) groups, chosen at
// random, are relabelled: a step f is drawn uniformly (rounded) between
// the group's newest index and its segment's end, and over the segment
// from the group's oldest index obs.desired_goal (and a stored
// obs_next.desired_goal) becomes the goal achieved after f, and rew is
// recomputed by the reward function from the goal achieved after each
// step. The storage holds the relabelled values until the next Add,
// Update, Reset, Save, SaveHDF5 or sampling, so that n-step returns
// computed from the buffer (Rew, TakeTo at Next indices) see them.
// Sampling panics with ErrValue when no reward function is set (a loaded
// buffer needs SetRewardFunc), as calling a nil function would.
type HER struct{ *core }

// NewHER returns an empty hindsight buffer. It returns an error wrapping
// ErrValue if a configuration is invalid.
func NewHER(cfg Config, hc HERConfig) (*HER, error) {
	c, err := newCore(cfg, []int{cfg.Size})
	if err != nil {
		return nil, err
	}
	if c.her, err = newHER(hc); err != nil {
		return nil, err
	}
	c.kind = kindHER
	return &HER{c}, nil
}

// HERVector is a Vector buffer of hindsight sub-buffers (Tianshou's
// HERVectorReplayBuffer); relabelling stays within each sub-buffer.
type HERVector struct{ *core }

// NewHERVector returns an empty hindsight vector buffer of bufferNum
// sub-buffers sharing cfg.Size. It returns an error wrapping ErrValue if a
// configuration is invalid.
func NewHERVector(cfg Config, bufferNum int, hc HERConfig) (*HERVector, error) {
	c, err := newVectorCore(cfg, bufferNum)
	if err != nil {
		return nil, err
	}
	if c.her, err = newHER(hc); err != nil {
		return nil, err
	}
	c.kind = kindHERVector
	return &HERVector{c}, nil
}

func newHER(hc HERConfig) (*herState, error) {
	if err := hc.Validate(); err != nil {
		return nil, err
	}
	return &herState{horizon: hc.Horizon, futureK: hc.futureK(), reward: hc.Reward}, nil
}

// The goal keys of dict observations that hindsight relabelling reads and
// writes.
const (
	obsAchieved  = batch.KeyObs + ".achieved_goal"
	obsDesired   = batch.KeyObs + ".desired_goal"
	nextAchieved = batch.KeyObsNext + ".achieved_goal"
	nextDesired  = batch.KeyObsNext + ".desired_goal"
)

// checkGoals checks that data has the goal keys hindsight relabelling
// needs, arrays of one shape.
func checkGoals(data *batch.Batch) error {
	var shape []int
	for _, k := range [...]string{obsAchieved, obsDesired, nextAchieved, nextDesired} {
		v, ok := data.Get(k)
		if !ok {
			if k == obsAchieved || k == obsDesired {
				return errorf(ErrKey, k, "Add: a hindsight buffer needs dict observations with achieved_goal and desired_goal")
			}
			continue
		}
		a, ok := v.(*nd.Array)
		if !ok {
			return errorf(ErrType, k, "Add: goals must be arrays, got "+describe(v))
		}
		if shape == nil {
			shape = a.Shape()
		} else if !slices.Equal(shape, a.Shape()) {
			return errorf(ErrType, k, fmt.Sprintf("Add: goals of shapes %v and %v", shape, a.Shape()))
		}
	}
	return nil
}

// Add stores transitions as Replay.Add does; obs must be a Batch holding
// achieved_goal and desired_goal (an error wrapping ErrKey otherwise).
func (b *HER) Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error) {
	if err := checkGoals(data); err != nil {
		return steps, err
	}
	return b.add(data, ids, steps, false)
}

// Add stores transitions as Vector.Add does; obs must be a Batch holding
// achieved_goal and desired_goal (an error wrapping ErrKey otherwise).
func (b *HERVector) Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error) {
	if err := checkGoals(data); err != nil {
		return steps, err
	}
	return b.add(data, ids, steps, true)
}

// Update copies other's transitions in as Replay.Update does (restoring
// relabelled values of both buffers first).
func (b *HER) Update(other Buffer) ([]int, error) { return b.update(other) }

// SetRewardFunc sets the reward function (a loaded buffer has none).
func (b *HER) SetRewardFunc(f RewardFunc) { b.her.reward = f }

// SetRewardFunc sets the reward function (a loaded buffer has none).
func (b *HERVector) SetRewardFunc(f RewardFunc) { b.her.reward = f }

func (b *HER) String() string       { return b.string("HERReplayBuffer") }
func (b *HERVector) String() string { return b.string("HERVectorReplayBuffer") }
