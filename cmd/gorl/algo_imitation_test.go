package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestTrainPSRL trains PSRL on NChain-v0 with its registered defaults
// (Tianshou's test settings): it must reach the 3,400 the run stops at.
func TestTrainPSRL(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"train", "--algo", "psrl", "--env", "NChain-v0", "--seed", "1",
		"--logdir", t.TempDir(), "--quiet"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String()+stderr.String(), "solved") {
		t.Errorf("PSRL did not solve NChain-v0:\n%s%s", stdout.String(), stderr.String())
	}
}

// TestGAILNeedsExpert checks that gail without expert data says how to
// give it, and that a missing file is named.
func TestGAILNeedsExpert(t *testing.T) {
	for _, c := range []struct {
		sets []string
		want string
	}{
		{nil, "algorithm.expert=FILE"},
		{[]string{"--set", `algorithm.expert="/no/such/file.buf"`}, "/no/such/file.buf"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"train", "--algo", "gail", "--env", "CartPole-v1", "--logdir", t.TempDir(), "--quiet"}, c.sets...)
		err := run(context.Background(), args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gorl %v: %v; want an error naming %q", args, err, c.want)
		}
	}
}
