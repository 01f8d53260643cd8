package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainSelfPlay runs a tiny self-play run on TicTacToe-v0 and checks
// its output and its run directory: the settings given with --set, the
// evaluation of both seats, and the Q network.
func TestTrainSelfPlay(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	args := []string{"train", "--env", "TicTacToe-v0", "--algo", "dqn", "--selfplay", "--quiet", "--logdir", dir,
		"--set", "selfplay.games=30", "--set", "selfplay.hidden=[16]", "--set", "selfplay.batch_size=8",
		"--set", "selfplay.test_every=10", "--set", "selfplay.test_games=4", "--set", "eval_games=20"}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, want := range []string{"30 games", "as player_1: win", "as player_2: win", "q.safetensors"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	var run selfPlayRun
	b, err := os.ReadFile(filepath.Join(dir, configFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &run); err != nil || run.SelfPlay.Games != 30 || run.EvalGames != 20 || run.SelfPlay.Hidden[0] != 16 {
		t.Errorf("config.json %s (%v)", b, err)
	}
	var res map[string]struct{ Games int }
	b, err = os.ReadFile(filepath.Join(dir, "eval.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &res); err != nil || res["player_1"].Games != 20 || res["player_2"].Games != 20 {
		t.Errorf("eval.json %s (%v)", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, selfPlayQFile)); err != nil {
		t.Error(err)
	}
}

func TestTrainSelfPlayErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--env", "TicTacToe-v0", "--algo", "ppo"}, "trains dqn"},
		{[]string{"--env", "CartPole-v1"}, "multi-agent"},
		{[]string{"--env", "TicTacToe-v0", "--set", "selfplay.gamez=1"}, "gamez"},
		{[]string{"--env", "TicTacToe-v0", "--set", "selfplay.dqn.n_step=3"}, "n_step"},
	} {
		args := append([]string{"train", "--selfplay", "--quiet", "--logdir", t.TempDir()}, c.args...)
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v; want one mentioning %q", c.args, err, c.want)
		}
	}
}
