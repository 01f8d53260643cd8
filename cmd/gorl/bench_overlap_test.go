package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/trainer"
)

// BenchmarkOverlap compares the off-policy trainer's sequential loop with
// its overlapped mode (trainer.overlap) on fixed-length runs without tests:
// DQN on CartPole with Tianshou's settings (10 envs, collections of 10
// steps, 0.1 updates per step), with 8 envs and one update per 4 env steps,
// with 8 envs and one update per 16, 64 and 128 env steps (near 64 to 128
// collection takes about as long as the updates; 128 runs 10,000 steps so
// that it still makes 78 updates), and the MinAtar preset's CNN on Breakout
// (one env, one update per step); and, sequentially, the same runs without
// updates (collect-only). Each op is one run; it reports the env
// steps (prefill included) plus updates per second of wall time and per
// second of the process's CPU time, the same per second of the epoch alone
// (the training loop, without the prefill and the first test, which run
// sequentially in either mode), and the share of collection in the time
// spent collecting and updating (wall time). The runs with eight updates a
// collection are two epochs of 20,000 env steps, and report the second
// epoch's rate too: by then the replay buffer's memory has been written
// once (the buffer holds 20,000 transitions) and the run is in the state a
// long run spends most of its time in.
func BenchmarkOverlap(b *testing.B) {
	for _, c := range []struct {
		name, env string
		preset    bool
		epochs    int // 1 if 0
		sets      []string
	}{
		{"cartpole-tianshou", "CartPole-v1", false, 0, []string{"trainer.step_per_epoch=5000"}},
		{"cartpole-8envs-1in4", "CartPole-v1", false, 0, []string{"trainer.step_per_epoch=5000",
			"train_envs=8", "trainer.step_per_collect=8", "trainer.update_per_step=0.25"}},
		{"cartpole-8envs-1in16", "CartPole-v1", false, 0, []string{"trainer.step_per_epoch=5000",
			"train_envs=8", "trainer.step_per_collect=16", "trainer.update_per_step=0.0625"}},
		{"cartpole-8envs-1in64", "CartPole-v1", false, 0, []string{"trainer.step_per_epoch=5000",
			"train_envs=8", "trainer.step_per_collect=64", "trainer.update_per_step=0.015625"}},
		{"cartpole-8envs-1in128", "CartPole-v1", false, 0, []string{"trainer.step_per_epoch=10000",
			"train_envs=8", "trainer.step_per_collect=128", "trainer.update_per_step=0.0078125"}},
		// Eight updates per collection, one per 64, 96 and 128 env steps:
		// a hand-over every 512 to 1,024 env steps.
		{"cartpole-8envs-1in64-x8", "CartPole-v1", false, 2, []string{"trainer.step_per_epoch=20000",
			"train_envs=8", "trainer.step_per_collect=512", "trainer.update_per_step=0.015625"}},
		{"cartpole-8envs-1in96-x8", "CartPole-v1", false, 2, []string{"trainer.step_per_epoch=20000",
			"train_envs=8", "trainer.step_per_collect=768", "trainer.update_per_step=0.010416666666666666"}},
		{"cartpole-8envs-1in128-x8", "CartPole-v1", false, 2, []string{"trainer.step_per_epoch=20000",
			"train_envs=8", "trainer.step_per_collect=1024", "trainer.update_per_step=0.0078125"}},
		{"breakout-minatar", "Breakout-MinAtar-v0", true, 0, []string{"trainer.step_per_epoch=2000", "trainer.prefill_steps=500"}},
	} {
		for _, mode := range []struct{ name, set string }{
			{"sequential", "trainer.overlap=false"},
			{"overlap", "trainer.overlap=true"},
			// No updates (round(10⁻⁹·steps) = 0): the CPU time of collection alone.
			{"collect-only", "trainer.update_per_step=1e-9"},
		} {
			b.Run(c.name+"/"+mode.name, func(b *testing.B) {
				epochs := max(c.epochs, 1)
				sets := append([]string{fmt.Sprintf("trainer.epochs=%d", epochs), "trainer.test_episodes=0"}, append(c.sets, mode.set)...)
				b.ReportAllocs()
				var work, loopWork, lastWork float64
				var wall, cpu, coll, upd, loop, last time.Duration
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					rc, acfg, err := resolveFrom("dqn", c.env, c.preset, nil, sets)
					if err != nil {
						b.Fatal(err)
					}
					// The epoch alone, without the prefill and the first test
					// that run sequentially in either mode.
					var prev trainer.EpochStats
					onEpoch := func(e trainer.EpochStats) {
						loop += e.Duration
						if e.Epoch == epochs && epochs > 1 {
							lastWork += float64(e.EnvSteps - prev.EnvSteps + e.GradientSteps - prev.GradientSteps)
							last += e.Duration
						}
						prev = e
					}
					s, err := newSession(rc, acfg, nil, trainer.Setup{OnEpoch: onEpoch})
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					cpu0, _ := cputime.Process()
					res, err := s.tr.Run(context.Background())
					cpu1, _ := cputime.Process()
					b.StopTimer()
					s.tr.Close()
					if err != nil {
						b.Fatal(err)
					}
					work += float64(res.EnvSteps + res.PrefillSteps + res.GradientSteps)
					loopWork += float64(res.EnvSteps + res.GradientSteps)
					wall += res.Duration
					cpu += cpu1 - cpu0
					coll, upd = coll+res.CollectTime, upd+res.UpdateTime
				}
				b.ReportMetric(work/wall.Seconds(), "steps+updates/s")
				b.ReportMetric(loopWork/loop.Seconds(), "epoch-steps+updates/s")
				if last > 0 {
					b.ReportMetric(lastWork/last.Seconds(), "last-epoch-steps+updates/s")
				}
				b.ReportMetric(coll.Seconds()/(coll+upd).Seconds(), "collect-share")
				if cpu > 0 {
					b.ReportMetric(work/cpu.Seconds(), "steps+updates/cpu-s")
				}
			})
		}
	}
}
