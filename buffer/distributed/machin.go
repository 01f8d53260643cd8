package distributed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

// Method chooses the transitions Buffer.SampleBatch returns (Machin's
// sample_method), across all live members.
type Method uint8

const (
	// SampleRandomUnique draws min(n, Len) distinct transitions uniformly:
	// the default, as for buffer.Memory.
	SampleRandomUnique Method = iota
	// SampleRandom draws n transitions uniformly with replacement.
	SampleRandom
	// SampleAll returns every transition of every live member, whatever n
	// is.
	SampleAll
	// sampleShard lets each shard draw as its SampleIndices does (Sample's
	// draw: uniform, or by priority in a prioritized shard).
	sampleShard
)

// SampleBatch draws n transitions across the live members with method and
// returns how many it took and the attributes named by attrs (every key of
// the transitions when attrs is empty; "*" for a map[string]any of those
// attrs does not name) in the forms buffer.Memory.SampleBatch gives them.
// A key holding a nested Batch is a major attribute, a numeric array a sub
// attribute, an array of other values a custom attribute:
//
//   - major: with concatenate the *batch.Batch of its arrays, [n, …];
//     without, a map[string][]*nd.Array of each transition's arrays;
//   - sub: with concatenate an *nd.Array [n, …] ([n, 1] for scalars);
//     without, a []*nd.Array of [1, …] arrays;
//   - custom: with concatenate and named in concatCustom an *nd.Array
//     [n, k] of the values; otherwise an []any of them.
//
// With n ≤ 0 (and a method other than SampleAll) it returns 0 and nil, as
// the local memory does. Members that do not answer in time are left out
// (Sample names them). It returns an error wrapping ErrDistributed, and buffer.ErrKey for a name
// the transitions lack or buffer.ErrType for values that cannot take the
// form asked for.
func (b *Buffer) SampleBatch(ctx context.Context, n int, concatenate bool, method Method, attrs, concatCustom []string, rng *rand.Rand) (int, []any, error) {
	if method >= sampleShard {
		return 0, nil, fmt.Errorf("%w: sample method %d", ErrDistributed, method)
	}
	if n <= 0 && method != SampleAll {
		return 0, nil, nil
	}
	s, err := b.m.sample(ctx, n, method, rng)
	if err != nil {
		return 0, nil, err
	}
	k, err := s.Batch.Len()
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", ErrDistributed, err)
	}
	res, err := machinForm(s.Batch, k, concatenate, attrs, concatCustom)
	if err != nil {
		return 0, nil, err
	}
	return k, res, nil
}

// SampleBatch draws n transitions across the live members in proportion to
// priority^α and returns how many it took, the attributes as
// Buffer.SampleBatch gives them, the handles of the transitions (for
// UpdatePriority) and their importance weights, computed with the global
// minimum priority (buffer.PrioritizedMemory's role, with handles for its
// slots). With n ≤ 0 it returns 0 and nils.
func (p *Prioritized) SampleBatch(ctx context.Context, n int, concatenate bool, attrs, concatCustom []string, rng *rand.Rand) (int, []any, []Handle, []float64, error) {
	if n <= 0 {
		return 0, nil, nil, nil, nil
	}
	s, err := p.m.sample(ctx, n, sampleShard, rng)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	w, err := s.Batch.Array(batch.KeyWeight)
	if err != nil {
		return 0, nil, nil, nil, fmt.Errorf("%w: %v", ErrDistributed, err)
	}
	w64, err := w.AsType(nd.Float64)
	if err != nil {
		return 0, nil, nil, nil, fmt.Errorf("%w: %v", ErrDistributed, err)
	}
	weights := nd.ToSlice[float64](w64)
	s.Batch.Delete(batch.KeyWeight)
	res, err := machinForm(s.Batch, len(weights), concatenate, attrs, concatCustom)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	return len(weights), res, s.Handles, weights, nil
}

// machinForm returns the attributes of b, k transitions, in Machin's
// forms.
func machinForm(b *batch.Batch, k int, concatenate bool, attrs, concatCustom []string) ([]any, error) {
	keys := slices.Collect(b.Keys())
	if len(attrs) == 0 {
		attrs = keys
	}
	out := make([]any, 0, len(attrs))
	for _, name := range attrs {
		if name != "*" {
			v, err := attrForm(b, name, k, concatenate, concatCustom)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		rest := map[string]any{}
		for _, key := range keys {
			if slices.Contains(attrs, key) {
				continue
			}
			v, err := attrForm(b, key, k, concatenate, concatCustom)
			if err != nil {
				return nil, err
			}
			rest[key] = v
		}
		out = append(out, rest)
	}
	return out, nil
}

func attrForm(b *batch.Batch, name string, k int, concatenate bool, concatCustom []string) (any, error) {
	v, ok := b.Get(name)
	if !ok || name == "" {
		return nil, fmt.Errorf("%w: %w: SampleBatch: no attribute %q", ErrDistributed, buffer.ErrKey, name)
	}
	switch v := v.(type) {
	case *batch.Batch:
		if concatenate {
			return v, nil
		}
		lists := map[string][]*nd.Array{}
		for key, x := range v.Items() {
			a, ok := x.(*nd.Array)
			if !ok {
				return nil, fmt.Errorf("%w: %w: SampleBatch: major attribute %s holds %T at %s, not arrays", ErrDistributed, buffer.ErrType, name, x, key)
			}
			lists[key] = rowsOf(a, k)
		}
		return lists, nil
	case *nd.Array:
		if v.DType() == nd.Object {
			vals := make([]any, k)
			for i := range vals {
				vals[i] = v.At(i)
			}
			if !concatenate || !slices.Contains(concatCustom, name) {
				return vals, nil
			}
			c, err := nd.New(vals)
			if err == nil && c.DType() != nd.Object {
				if c, err = c.Reshape(k, -1); err == nil {
					return c, nil
				}
			}
			return nil, fmt.Errorf("%w: %w: SampleBatch: custom attribute %s cannot be concatenated into a numeric array (%v)", ErrDistributed, buffer.ErrType, name, err)
		}
		if v.Ndim() == 1 {
			c, err := v.Reshape(k, 1)
			if err != nil {
				return nil, fmt.Errorf("%w: %w: SampleBatch: attribute %s: %v", ErrDistributed, buffer.ErrType, name, err)
			}
			v = c
		}
		if concatenate {
			return v, nil
		}
		return rowsOf(v, k), nil
	default:
		return nil, fmt.Errorf("%w: %w: SampleBatch: attribute %s holds %T", ErrDistributed, buffer.ErrType, name, v)
	}
}

// rowsOf returns each of the k rows of a as an array [1, …].
func rowsOf(a *nd.Array, k int) []*nd.Array {
	out := make([]*nd.Array, k)
	for i := range out {
		out[i] = nd.Take(a, []int{i})
	}
	return out
}
