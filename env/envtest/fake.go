package envtest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Config describes a Fake. The zero Config is a valid env whose episodes
// last one step.
type Config struct {
	// ID is the env's number, the first element of every observation, so
	// that tests of vector envs can tell envs apart.
	ID int
	// Lengths are the episode lengths in steps, used in turn: counting
	// episodes from 0 at the last seeded Reset (or the first Reset), episode
	// e lasts Lengths[e % len(Lengths)] steps. Nil means one step. Lengths
	// must be positive.
	Lengths []int
	// Reward returns the reward of step t (1-based) of episode e. Nil means
	// a reward of 1 per step, so that a return equals the episode's length.
	Reward func(episode, step int) float64
	// Truncate makes episodes end with truncated = true instead of
	// terminated.
	Truncate bool
	// Sleep is a pause in every Step, to test asynchronous stepping.
	Sleep time.Duration
	// Info makes every Reset and Step return a new Info {"episode": e,
	// "step": t} (ints); otherwise Info is nil.
	Info bool
	// Dict makes the observation a Batch in the space Dict('id':
	// Discrete(65536), 'pos': Box(0.0, inf, (2,), float32)) holding the ID
	// and [episode, step]; ID must then be below 65536.
	Dict bool
	// ErrorAt, when positive, makes the ErrorAt-th Step of the env's life
	// (counting every call, 1-based) fail with ErrFake, changing nothing.
	ErrorAt int
	// PanicAt, when positive, makes the PanicAt-th Step of the env's life
	// panic with ErrFake.
	PanicAt int
	// BlockAt, when positive, makes the BlockAt-th Step of the env's life
	// block until Unblock is closed, or for ever if Unblock is nil: an env
	// that hangs. The Step then goes on as usual.
	BlockAt int
	// Unblock, when closed, releases the Step blocked by BlockAt; tests
	// close it so that no goroutine stays blocked after them.
	Unblock <-chan struct{}
}

// ErrFake is wrapped by the errors and panics a Fake produces on purpose.
var ErrFake = errors.New("envtest: planned failure")

// Fake is a deterministic env whose episode lengths and rewards are known in
// advance, after Tianshou's MoveToRightEnv. Its observation is the float32
// array [ID, episode, step] in Box(0.0, inf, (3,), float32), where episode
// counts episodes since the last seeded Reset and step counts steps since
// Reset (or the same numbers in a Batch, with Config.Dict). Its action space is Discrete(2); actions are checked and the last
// one is kept (LastAction) but do not change the dynamics. Seeds only
// restart the episode sequence: there is no randomness.
//
// A Fake renders an 8×8 frame whose gray level is the step count, and saves
// and restores its state. Its observation array is reused by every call.
type Fake struct {
	cfg      Config
	obsSpace env.Space
	actSpace *env.Discrete
	obs      any       // the *nd.Array or *batch.Batch returned
	obsData  []float32 // [ID, episode, step], or [episode, step] with Dict
	id       []int64   // the Dict's "id" value
	frame    *image.RGBA

	episode, step int
	calls         int // Step calls, for ErrorAt and PanicAt
	running       bool
	reset         bool // Reset has been called
	last          int64
	closed        int // Close calls
}

// New returns a Fake configured by cfg. It returns an error for a length
// that is not positive or a negative ID, ErrorAt, PanicAt or BlockAt.
func New(cfg Config) (*Fake, error) {
	for _, l := range cfg.Lengths {
		if l <= 0 {
			return nil, fmt.Errorf("envtest: episode length %d: want a positive length", l)
		}
	}
	if cfg.ID < 0 || cfg.ErrorAt < 0 || cfg.PanicAt < 0 || cfg.BlockAt < 0 {
		return nil, fmt.Errorf("envtest: negative ID, ErrorAt, PanicAt or BlockAt in %+v", cfg)
	}
	if cfg.Lengths == nil {
		cfg.Lengths = []int{1}
	}
	cfg.Lengths = append([]int(nil), cfg.Lengths...)
	actSpace, err := env.NewDiscrete(2, 0)
	if err != nil {
		return nil, err
	}
	f := &Fake{cfg: cfg, actSpace: actSpace, frame: image.NewRGBA(image.Rect(0, 0, 8, 8)), last: -1}
	if err := f.makeObs(); err != nil {
		return nil, err
	}
	return f, nil
}

// makeObs builds the observation space and the observation value.
func (f *Fake) makeObs() error {
	if !f.cfg.Dict {
		box, err := env.NewBox(0, math.Inf(1), []int{3}, nd.Float32)
		if err != nil {
			return err
		}
		obs := nd.Zeros(nd.Float32, 3)
		f.obsSpace, f.obs, f.obsData = box, obs, nd.Data[float32](obs)
		return nil
	}
	if f.cfg.ID >= 1<<16 {
		return fmt.Errorf("envtest: ID %d does not fit the Dict observation's Discrete(65536)", f.cfg.ID)
	}
	id, err := env.NewDiscrete(1<<16, 0)
	if err != nil {
		return err
	}
	pos, err := env.NewBox(0, math.Inf(1), []int{2}, nd.Float32)
	if err != nil {
		return err
	}
	space, err := env.NewDict(env.DictEntry{Key: "id", Space: id}, env.DictEntry{Key: "pos", Space: pos})
	if err != nil {
		return err
	}
	idArr, posArr := nd.Zeros(nd.Int64), nd.Zeros(nd.Float32, 2)
	obs, err := batch.New("id", idArr, "pos", posArr)
	if err != nil {
		return err
	}
	f.obsSpace, f.obs, f.obsData, f.id = space, obs, nd.Data[float32](posArr), nd.Data[int64](idArr)
	return nil
}

// MustNew is like New but panics on error; for tests.
func MustNew(cfg Config) *Fake {
	f, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return f
}

// name identifies the env in errors.
func (f *Fake) name() string { return fmt.Sprintf("envtest.Fake %d", f.cfg.ID) }

// ObservationSpace returns Box(0.0, inf, (3,), float32), or the Dict
// space of Config.Dict.
func (f *Fake) ObservationSpace() env.Space { return f.obsSpace }

// ActionSpace returns Discrete(2).
func (f *Fake) ActionSpace() env.Space { return f.actSpace }

// Length returns the length of episode e (counted from the last seeded Reset).
func (f *Fake) Length(e int) int { return f.cfg.Lengths[e%len(f.cfg.Lengths)] }

// LastAction returns the last action Step accepted, or -1 before any.
func (f *Fake) LastAction() int64 { return f.last }

// Closed returns the number of Close calls.
func (f *Fake) Closed() int { return f.closed }

func (f *Fake) observe() any {
	if f.cfg.Dict {
		f.id[0], f.obsData[0], f.obsData[1] = int64(f.cfg.ID), float32(f.episode), float32(f.step)
	} else {
		f.obsData[0], f.obsData[1], f.obsData[2] = float32(f.cfg.ID), float32(f.episode), float32(f.step)
	}
	return f.obs
}

func (f *Fake) info() env.Info {
	if !f.cfg.Info {
		return nil
	}
	return env.Info{"episode": f.episode, "step": f.step}
}

// Reset starts the next episode; a seed restarts the sequence at episode 0.
func (f *Fake) Reset(seed env.Seed) (any, env.Info, error) {
	if _, ok := seed.Value(); ok {
		f.episode = 0
	} else if f.reset {
		f.episode++
	}
	f.step, f.running, f.reset = 0, true, true
	return f.observe(), f.info(), nil
}

// Step advances the episode by one step.
func (f *Fake) Step(action any) (any, float64, bool, bool, env.Info, error) {
	f.calls++
	if f.cfg.PanicAt > 0 && f.calls == f.cfg.PanicAt {
		panic(fmt.Errorf("%s: step %d: %w", f.name(), f.calls, ErrFake))
	}
	if f.cfg.BlockAt > 0 && f.calls == f.cfg.BlockAt {
		<-f.cfg.Unblock // a nil channel blocks for ever
	}
	if f.cfg.ErrorAt > 0 && f.calls == f.cfg.ErrorAt {
		return nil, 0, false, false, nil, fmt.Errorf("%s: step %d: %w", f.name(), f.calls, ErrFake)
	}
	if !f.running {
		return nil, 0, false, false, nil, fmt.Errorf("%s: %w", f.name(), env.ErrNeedReset)
	}
	a, err := f.actSpace.Int(action)
	if err != nil {
		return nil, 0, false, false, nil, fmt.Errorf("%s: %w", f.name(), err)
	}
	if f.cfg.Sleep > 0 {
		time.Sleep(f.cfg.Sleep)
	}
	f.last = a
	f.step++
	r := 1.0
	if f.cfg.Reward != nil {
		r = f.cfg.Reward(f.episode, f.step)
	}
	end := f.step >= f.Length(f.episode)
	f.running = !end
	return f.observe(), r, end && !f.cfg.Truncate, end && f.cfg.Truncate, f.info(), nil
}

// Render returns an 8×8 frame whose gray level is the step count (mod 256),
// reused by every call. It returns an error before the first Reset.
func (f *Fake) Render() (image.Image, error) {
	if !f.reset {
		return nil, fmt.Errorf("%s: Render: %w", f.name(), env.ErrNeedReset)
	}
	c := color.RGBA{uint8(f.step), uint8(f.step), uint8(f.step), 255}
	for i := 0; i < len(f.frame.Pix); i += 4 {
		f.frame.Pix[i], f.frame.Pix[i+1], f.frame.Pix[i+2], f.frame.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return f.frame, nil
}

// Close counts the call and returns nil.
func (f *Fake) Close() error {
	f.closed++
	return nil
}

const fakeStateTag = "envtest.Fake/1"

// MarshalState returns the episode and step counters, the flags and the
// last action.
func (f *Fake) MarshalState() ([]byte, error) {
	b := append([]byte(nil), fakeStateTag...)
	for _, v := range []int64{int64(f.episode), int64(f.step), int64(f.calls), f.last, b2i(f.running), b2i(f.reset)} {
		b = binary.AppendVarint(b, v)
	}
	return b, nil
}

// UnmarshalState restores a state MarshalState returned. It returns an
// error wrapping env.ErrState for anything else.
func (f *Fake) UnmarshalState(data []byte) error {
	bad := fmt.Errorf("%s: %w", f.name(), env.ErrState)
	if len(data) < len(fakeStateTag) || string(data[:len(fakeStateTag)]) != fakeStateTag {
		return bad
	}
	data = data[len(fakeStateTag):]
	var v [6]int64
	for i := range v {
		x, n := binary.Varint(data)
		if n <= 0 {
			return bad
		}
		v[i], data = x, data[n:]
	}
	if len(data) != 0 || v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < -1 || v[3] > 1 || v[4]&^1 != 0 || v[5]&^1 != 0 {
		return bad
	}
	f.episode, f.step, f.calls, f.last, f.running, f.reset = int(v[0]), int(v[1]), int(v[2]), v[3], v[4] == 1, v[5] == 1
	return nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
