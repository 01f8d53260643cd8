package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gorl/gorl/env"
)

// memoryEnv names the environment variable that overrides the memory a run
// may use: a number of bytes with an optional unit (KB, MB, GB, TB or
// KiB, MiB, GiB, TiB), or "off" to skip the check.
const memoryEnv = "GORL_MEMORY"

// memoryAvailable returns the bytes a run may allocate and where that
// figure comes from: GORL_MEMORY if set, else on Linux the smaller of
// MemAvailable in /proc/meminfo and the room left under the cgroup's
// memory.max. ok is false when no figure is known (the check is skipped).
func memoryAvailable() (n float64, source string, ok bool, err error) {
	if v, set := os.LookupEnv(memoryEnv); set && v != "" {
		if strings.EqualFold(v, "off") {
			return 0, "", false, nil
		}
		n, err := parseBytes(v)
		if err != nil {
			return 0, "", false, fmt.Errorf("%s=%q: %w", memoryEnv, v, err)
		}
		return n, memoryEnv, true, nil
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if kb, found := meminfoField(b, "MemAvailable"); found {
			n, source, ok = kb*1024, "MemAvailable in /proc/meminfo", true
		}
	}
	if max, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		cur, err := os.ReadFile("/sys/fs/cgroup/memory.current")
		lim, err1 := strconv.ParseFloat(strings.TrimSpace(string(max)), 64)
		used, err2 := strconv.ParseFloat(strings.TrimSpace(string(cur)), 64)
		if err == nil && err1 == nil && err2 == nil && (!ok || lim-used < n) {
			n, source, ok = math.Max(0, lim-used), "the cgroup's memory.max", true
		}
	}
	return n, source, ok, nil
}

// meminfoField returns the value in kB of a /proc/meminfo line.
func meminfoField(meminfo []byte, name string) (float64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != name {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			return 0, false
		}
		x, err := strconv.ParseFloat(f[0], 64)
		return x, err == nil
	}
	return 0, false
}

// parseBytes parses a byte count such as "8GiB", "512MB" or "1e9".
func parseBytes(s string) (float64, error) {
	s = strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x >= 0) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("want a number of bytes such as 8GiB, or off")
	}
	return x * mult, nil
}

// formatBytes writes n bytes in decimal units.
func formatBytes(n float64) string {
	for _, u := range []struct {
		unit string
		size float64
	}{{"PB", 1e15}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}} {
		if n >= u.size {
			return fmt.Sprintf("%.3g %s", n/u.size, u.unit)
		}
	}
	return fmt.Sprintf("%.0f bytes", n)
}

// memoryItem is the estimated allocation of one part of a run and the
// setting that sizes it.
type memoryItem struct {
	setting string
	bytes   float64
}

// memoryEstimate adds up the bytes a run will allocate, part by part. The
// figures are estimates of the large allocations (buffer columns, network
// parameters with their gradients and optimizer state, sampled batches and
// their activations, envs), meant to refuse sizes that cannot fit before
// anything is allocated, not to account for every byte.
type memoryEstimate []memoryItem

func (m *memoryEstimate) add(setting string, bytes float64) {
	*m = append(*m, memoryItem{setting, bytes})
}

// check returns an error naming the largest part's setting when the total
// exceeds the memory available.
func (m memoryEstimate) check() error {
	avail, source, ok, err := memoryAvailable()
	if err != nil || !ok {
		return err
	}
	var total float64
	for _, it := range m {
		total += it.bytes
	}
	if total <= avail {
		return nil
	}
	big := slices.MaxFunc(m, func(a, b memoryItem) int {
		switch {
		case a.bytes < b.bytes:
			return -1
		case a.bytes > b.bytes:
			return 1
		}
		return 0
	})
	return fmt.Errorf("%s: the run would need about %s of memory, %s of it for %s, more than the %s available (%s; set %s to override)",
		big.setting, formatBytes(total), formatBytes(big.bytes), big.setting, formatBytes(avail), source, memoryEnv)
}

// Bytes of the parts of a run that the estimate counts.
const (
	// float32 network parameters, each with a gradient, two Adam moments
	// and a copy (a target network or a second head): 5 × 4 bytes.
	bytesPerParam = 20
	// activations kept per unit and sample for the backward pass (value,
	// gradient, activation output), float32.
	bytesPerActivation = 12
	// bookkeeping per stored transition besides its values: reward,
	// flags, episode indices.
	bytesPerSlot = 8 + 3 + 3*8
	// an env and its slot in a vector env, a rough figure for the classic
	// envs (an env of one's own may take far more).
	bytesPerEnv = 4 << 10
)

// spaceBytes returns the bytes of one value of a space (8 per element of a
// space without a single shape or dtype, such as a Dict).
func spaceBytes(s env.Space) float64 {
	n := 1.0
	for _, d := range s.Shape() {
		n *= float64(d)
	}
	if sz := s.DType().Size(); sz > 0 {
		return n * float64(sz)
	}
	return n * 8
}

// spaceDim returns the number of inputs or outputs a network has for a
// space: its elements, or a Discrete space's number of values.
func spaceDim(s env.Space) float64 {
	if d, ok := s.(*env.Discrete); ok {
		return float64(d.N())
	}
	n := 1.0
	for _, d := range s.Shape() {
		n *= float64(d)
	}
	return n
}

// hiddenLayers returns the lists of hidden-layer widths in an algorithm's
// configuration (every field named hidden or ending in _hidden), with the
// path of each, "algorithm.net.hidden" say.
func hiddenLayers(raw json.RawMessage) map[string][]float64 {
	var doc any
	if json.Unmarshal(raw, &doc) != nil {
		return nil
	}
	out := map[string][]float64{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		for k, v := range m {
			p := path + "." + k
			if l, ok := v.([]any); ok && (k == "hidden" || strings.HasSuffix(k, "_hidden")) {
				var ws []float64
				for _, w := range l {
					if f, ok := w.(float64); ok {
						ws = append(ws, f)
					}
				}
				out[p] = ws
				continue
			}
			walk(p, v)
		}
	}
	walk("algorithm", doc)
	return out
}

// networkBytes estimates the parameter memory of a multilayer perceptron
// from in inputs through the widths to out outputs, and the activations
// of one sample.
func networkBytes(in float64, widths []float64, out float64) (params, activations float64) {
	prev := in
	for _, w := range append(slices.Clone(widths), out) {
		params += prev*w + w
		activations += w
		prev = w
	}
	return params * bytesPerParam, activations * bytesPerActivation
}
