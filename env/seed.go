package env

import (
	"math/rand/v2"
	"strconv"
)

// Seed is an optional seed for Env.Reset, Gymnasium's seed=None|int. The
// zero Seed, NoSeed, means "continue the current random stream"; SeedOf(v)
// means "reseed with v".
type Seed struct {
	v     uint64
	valid bool
}

// NoSeed is the zero Seed: Reset continues the env's random stream.
var NoSeed Seed

// SeedOf returns the Seed that makes Reset reseed the env with v.
func SeedOf(v uint64) Seed { return Seed{v: v, valid: true} }

// Value returns the seed and whether there is one.
func (s Seed) Value() (v uint64, ok bool) { return s.v, s.valid }

// String returns the seed in decimal, or "none".
func (s Seed) String() string {
	if !s.valid {
		return "none"
	}
	return strconv.FormatUint(s.v, 10)
}

// pcgStream is the second PCG seed word; the first is the env's seed.
const pcgStream = 0x9e3779b97f4a7c15

// Reseed applies seed to src, an env's random source, the way every env of
// this module does: a valid seed v sets src to PCG(v, 0x9e3779b97f4a7c15);
// NoSeed leaves src as it is unless fresh is true (the env was never
// seeded), in which case src is seeded from the runtime's random source.
// It reports whether src was reseeded.
func Reseed(src *rand.PCG, seed Seed, fresh bool) bool {
	switch v, ok := seed.Value(); {
	case ok:
		src.Seed(v, pcgStream)
	case fresh:
		src.Seed(rand.Uint64(), pcgStream)
	default:
		return false
	}
	return true
}
