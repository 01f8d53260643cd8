package collector

import (
	"errors"
	"fmt"
	"image"
	"math/rand/v2"
	"time"

	"github.com/gorl/gorl/env/vector"
)

// Errors of the package, tested with errors.Is.
var (
	// ErrConfig is wrapped by the errors of New and NewAsync for an
	// invalid Config: no vector env, a buffer with fewer sub-buffers than
	// envs, an ActionMapper policy with a Dict or Tuple action space.
	ErrConfig = errors.New("collector: invalid config")
	// ErrRequest is wrapped by the error of a Collect whose Request is
	// invalid: neither or both of NStep and NEpisode, a negative count,
	// Random without Config.Rand, a policy step without Config.Policy,
	// Render without Config.OnFrame.
	ErrRequest = errors.New("collector: invalid request")
)

// Config configures a Collector or an AsyncCollector. Env is required; a
// zero field is "none" or "off" unless its comment says otherwise.
type Config struct {
	// Env is the vector env to collect from. The collector drives it
	// (no one else may step or reset it meanwhile) but does not own it:
	// the caller closes it. Its envs must not be running when the
	// collector is made.
	Env vector.Env
	// Policy chooses the actions; it may be nil for a collector that only
	// collects with Request.Random.
	Policy Policy
	// Buffer stores the transitions, env i's into sub-buffer i, so it must
	// have at least as many sub-buffers as Env has envs (a *buffer.Vector
	// or *buffer.PrioritizedVector of Env.Len() sub-buffers, a
	// *buffer.Cached of Env.Len() caches; a one-ring buffer such as
	// *buffer.Replay for one env). Nil makes a *buffer.Vector of one
	// transition per env, as Tianshou does, for collectors whose statistics
	// are all that matters (evaluation).
	Buffer Buffer
	// Explore is passed to Policy.Act: true for a training collector
	// (exploration noise, ε-greedy, sampling from the action
	// distribution), false for evaluation. Tianshou's exploration_noise.
	Explore bool `json:"explore"`
	// Rand is the random source of Request.Random, which samples the
	// action space with it.
	Rand *rand.Rand
	// OnStep, if set, is called for every env step stored, after the
	// vector step's transitions have been added to the buffer, in row
	// order.
	OnStep func(StepEvent)
	// OnEpisode, if set, is called for every finished episode, after the
	// OnStep calls of its vector step.
	OnEpisode func(EpisodeEvent)
	// OnFrame receives the frames of Request.Render: env id and frame,
	// which the env may redraw on its next render (copy it to keep it).
	OnFrame func(env int, frame image.Image)
}

// AsyncConfig configures an AsyncCollector: a Config plus Tianshou's
// wait_num and timeout of asynchronous vector envs.
type AsyncConfig struct {
	Config
	// WaitNum is the number of envs to wait for after sending actions:
	// the collector stores the results of the first WaitNum envs to finish
	// and sends them their next actions while the others keep running. 0
	// means all the envs that are running, which makes every vector step
	// wait for the slowest env.
	WaitNum int `json:"wait_num"`
	// Timeout bounds the wait for WaitNum envs once at least one env has
	// finished: the envs finished by then are taken (Tianshou's timeout).
	// 0 means no bound. A timeout costs an allocation per vector step (a
	// context with a deadline).
	Timeout time.Duration `json:"timeout"`
}

// Request says what one Collect does, Tianshou's collect arguments.
// Exactly one of NStep and NEpisode must be positive.
type Request struct {
	// NStep is the number of env steps to collect: exactly NStep with one
	// env; with n envs, whole vector steps until at least NStep (a multiple
	// of n when every env steps). AsyncCollector collects at least NStep.
	NStep int `json:"n_step"`
	// NEpisode is the number of episodes to collect: exactly NEpisode
	// finished episodes with Collector (see its documentation for which
	// envs step), at least NEpisode with AsyncCollector.
	NEpisode int `json:"n_episode"`
	// Random samples actions from the action space with Config.Rand
	// instead of asking the policy (the policy's hidden state is left as
	// it is).
	Random bool `json:"random"`
	// ResetBeforeCollect resets every env first (without seeds; call
	// Reset for seeds), abandoning the episodes in progress.
	ResetBeforeCollect bool `json:"reset_before_collect"`
	// Render renders the stepping envs after every vector step and gives
	// the frames to Config.OnFrame.
	Render bool `json:"render"`
	// RenderPause is the pause after each rendered vector step, so that a
	// viewer sees the frames at a human pace (Tianshou's render=seconds).
	RenderPause time.Duration `json:"render_pause"`
}

// validate checks req against what the collector was given.
func (e *engine) validate(req Request) error {
	bad := func(msg string) error { return fmt.Errorf("%w: %s", ErrRequest, msg) }
	switch {
	case req.NStep < 0 || req.NEpisode < 0:
		return bad(fmt.Sprintf("negative NStep %d or NEpisode %d", req.NStep, req.NEpisode))
	case req.NStep == 0 && req.NEpisode == 0:
		return bad("neither NStep nor NEpisode is set")
	case req.NStep > 0 && req.NEpisode > 0:
		return bad(fmt.Sprintf("both NStep (%d) and NEpisode (%d) are set", req.NStep, req.NEpisode))
	case req.Random && e.rng == nil:
		return bad("Random needs Config.Rand")
	case !req.Random && e.policy == nil:
		return bad("no Config.Policy to act (set Random to sample actions)")
	case req.Render && e.onFrame == nil:
		return bad("Render needs Config.OnFrame to receive the frames")
	case req.RenderPause < 0:
		return bad(fmt.Sprintf("negative RenderPause %v", req.RenderPause))
	}
	return nil
}
