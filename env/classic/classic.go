package classic

import (
	"errors"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
)

// ErrAction is wrapped by the error Step returns for an action outside the env's action space:
// a discrete action out of range, or a continuous action that is NaN or infinite.
var ErrAction = errors.New("invalid action")

// ErrState is wrapped by the error SetState returns for a state of the wrong length or with a
// value that is NaN or infinite, and by the error Step returns when a step would leave the state
// non-finite (possible only from extreme states or parameters; the state is then left as it was).
var ErrState = errors.New("invalid state")

// ErrNotReset is wrapped by the error Step returns, and by the error Observe, Render and RenderTo
// panic with, when the env has no state yet: neither Reset nor SetState has been called.
var ErrNotReset = errors.New("env used before Reset or SetState")

// notReset returns the error of method for an env without state.
func notReset(method string) error { return fmt.Errorf("classic: %s: %w", method, ErrNotReset) }

// ShapeError is the value Observe and RenderTo panic with when their destination has the wrong
// size, a programmer error like an index out of range.
type ShapeError struct {
	Method string // the method that panicked, such as "CartPole.Observe"
	Got    string // the destination's size, such as "len 3" or "(0,0)-(500,500)"
	Want   string // the size required
}

func (e ShapeError) Error() string {
	return fmt.Sprintf("classic: %s: destination is %s, want %s", e.Method, e.Got, e.Want)
}

// checkObs panics with a ShapeError unless len(dst) == n.
func checkObs(method string, dst []float32, n int) {
	if len(dst) != n {
		panic(ShapeError{Method: method, Got: fmt.Sprintf("len %d", len(dst)), Want: fmt.Sprintf("len %d", n)})
	}
}

// checkFrame panics with a ShapeError unless dst's bounds are exactly want.
func checkFrame(method string, dst *image.RGBA, want image.Rectangle) {
	if dst.Rect != want {
		panic(ShapeError{Method: method, Got: dst.Rect.String(), Want: want.String()})
	}
}

// checkState returns an error wrapping ErrState unless s has length n and finite values.
func checkState(env string, s []float64, n int) error {
	if len(s) != n {
		return fmt.Errorf("classic: %s state has length %d, want %d: %w", env, len(s), n, ErrState)
	}
	for i, v := range s {
		if !finite(v) {
			return fmt.Errorf("classic: %s state[%d] is %v: %w (want a finite number)", env, i, v, ErrState)
		}
	}
	return nil
}

// diverged returns the error Step reports when a step from state s would produce a non-finite
// state or reward.
func diverged(env string, s []float64) error {
	return fmt.Errorf("classic: %s step from state %v gives a non-finite result: %w", env, s, ErrState)
}

// discreteAction returns an error wrapping ErrAction unless 0 ≤ a < n.
func discreteAction(env string, a, n int) error {
	if uint(a) < uint(n) {
		return nil
	}
	return fmt.Errorf("classic: %s action %d: %w (want 0 to %d)", env, a, ErrAction, n-1)
}

// continuousAction returns an error wrapping ErrAction unless a is finite.
func continuousAction(env string, a float32) error {
	if finite(float64(a)) {
		return nil
	}
	return fmt.Errorf("classic: %s action %v: %w (want a finite number)", env, a, ErrAction)
}

// pi is π rounded to float64, a variable so that expressions such as 9·π are rounded step by
// step as in Python instead of being folded exactly by the compiler.
var pi = math.Pi

// finite reports whether v is neither NaN nor infinite, in one comparison.
func finite(v float64) bool { return math.Abs(v) <= math.MaxFloat64 }

// uniform samples U(lo, hi) the way numpy's Generator.uniform does: lo + (hi−lo)·u with u
// uniform in [0, 1).
func uniform(rng *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

// clip returns x limited to [lo, hi], as numpy's clip does for a finite x.
func clip(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// bounds32 returns low = −high and high, both rounded to float32 as Gymnasium's Box stores them.
func bounds32(high ...float64) (lo, hi []float32) {
	lo = make([]float32, len(high))
	hi = make([]float32, len(high))
	for i, h := range high {
		hi[i] = float32(h)
		lo[i] = -hi[i]
	}
	return lo, hi
}
