package env_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/env"
)

// TestEpisodeState checks that ParseEpisodeState reads back what
// AppendEpisodeState wrote, with the rest of the data after it, and
// refuses another tag, unknown or inconsistent flags and a cut source.
func TestEpisodeState(t *testing.T) {
	h := env.EpisodeState{Seeded: true, HasState: true, Running: true, Source: *rand.NewPCG(3, 4)}
	b, err := env.AppendEpisodeState(nil, "kind/1 X-v0", &h)
	if err != nil {
		t.Fatal(err)
	}
	got, rest, err := env.ParseEpisodeState(append(b, 7, 8), "kind/1 X-v0")
	if err != nil || got != h || string(rest) != "\x07\x08" {
		t.Fatalf("ParseEpisodeState = %+v, %v, %v; want %+v, [7 8]", got, rest, err, h)
	}
	flagAt := len("kind/1 X-v0")
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		tag  string
		want string
	}{
		{"other tag", func(b []byte) []byte { return b }, "kind/1 Y-v0", "not a saved state"},
		{"unknown flag", func(b []byte) []byte { b[flagAt] |= 8; return b }, "kind/1 X-v0", "flags 0xf"},
		{"running without state", func(b []byte) []byte { b[flagAt] = 4; return b }, "kind/1 X-v0", "flags 0x4"},
		{"cut source", func(b []byte) []byte { return b[:len(b)-3] }, "kind/1 X-v0", "truncated random source"},
	} {
		data := tc.edit(append([]byte(nil), b...))
		if _, _, err := env.ParseEpisodeState(data, tc.tag); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}
