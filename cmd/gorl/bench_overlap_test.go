package main

import (
	"context"
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
// spent collecting and updating (wall time).
func BenchmarkOverlap(b *testing.B) {
	for _, c := range []struct {
		name, env string
		preset    bool
		sets      []string
	}{
		{"cartpole-tianshou", "CartPole-v1", false, []string{"trainer.step_per_epoch=5000"}},
		{"cartpole-8envs-1in4", "CartPole-v1", false, []string{"trainer.step_per_epoch=5000",
			"train_envs=8", "trainer.step_per_collect=8", "trainer.update_per_step=0.25"}},
		{"cartpole-8envs-1in16", "CartPole-v1", false, []string{"trainer.step_per_epoch=5000",
			"train_envs=8", "trainer.step_per_collect=16", "trainer.update_per_step=0.0625"}},
		{"cartpole-8envs-1in64", "CartPole-v1", false, []string{"trainer.step_per_epoch=5000",
			"train_envs=8", "trainer.step_per_collect=64", "trainer.update_per_step=0.015625"}},
		{"cartpole-8envs-1in128", "CartPole-v1", false, []string{"trainer.step_per_epoch=10000",
			"train_envs=8", "trainer.step_per_collect=128", "trainer.update_per_step=0.0078125"}},
		// Eight updates per collection, one per 64, 96 and 128 env steps:
		// a hand-over every 512 to 1,024 env steps.
		{"cartpole-8envs-1in64-x8", "CartPole-v1", false, []string{"trainer.step_per_epoch=20000",
			"train_envs=8", "trainer.step_per_collect=512", "trainer.update_per_step=0.015625"}},
		{"cartpole-8envs-1in96-x8", "CartPole-v1", false, []string{"trainer.step_per_epoch=20000",
			"train_envs=8", "trainer.step_per_collect=768", "trainer.update_per_step=0.010416666666666666"}},
		{"cartpole-8envs-1in128-x8", "CartPole-v1", false, []string{"trainer.step_per_epoch=20000",
			"train_envs=8", "trainer.step_per_collect=1024", "trainer.update_per_step=0.0078125"}},
		{"breakout-minatar", "Breakout-MinAtar-v0", true, []string{"trainer.step_per_epoch=2000", "trainer.prefill_steps=500"}},
	} {
		for _, mode := range []struct{ name, set string }{
			{"sequential", "trainer.overlap=false"},
			{"overlap", "trainer.overlap=true"},
			// No updates (round(10⁻⁹·steps) = 0): the CPU time of collection alone.
			{"collect-only", "trainer.update_per_step=1e-9"},
		} {
			b.Run(c.name+"/"+mode.name, func(b *testing.B) {
				sets := append([]string{"trainer.epochs=1", "trainer.test_episodes=0"}, append(c.sets, mode.set)...)
				b.ReportAllocs()
				var work, loopWork float64
				var wall, cpu, coll, upd, loop time.Duration
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					rc, acfg, err := resolveFrom("dqn", c.env, c.preset, nil, sets)
					if err != nil {
						b.Fatal(err)
					}
					// The epoch alone, without the prefill and the first test
					// that run sequentially in either mode.
					onEpoch := func(e trainer.EpochStats) { loop += e.Duration }
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
				b.ReportMetric(coll.Seconds()/(coll+upd).Seconds(), "collect-share")
				if cpu > 0 {
					b.ReportMetric(work/cpu.Seconds(), "steps+updates/cpu-s")
				}
			})
		}
	}
}
