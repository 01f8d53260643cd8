package classic_test

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env/classic"
)

var (
	sinkReward float64
	sinkImage  *image.RGBA
)

// BenchmarkStep times one raw Step per iteration with actions alternating between the first two
// (discrete) or ±0.5 (continuous); an episode that terminates is reset, so a few Resets are
// included (CartPole's episodes last about ten steps under this policy).
func BenchmarkStep(b *testing.B) {
	for _, e := range allEnvs() {
		b.Run(e.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			e.reset(rng)
			actions := [2]float64{0, 1}
			if !e.discrete {
				actions = [2]float64{-0.5, 0.5}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, terminated, err := e.step(actions[i&1])
				if err != nil {
					b.Fatal(err)
				}
				if terminated {
					e.reset(rng)
				}
				sinkReward += r
			}
		})
	}
}

// BenchmarkCartPoleStep times CartPole.Step called directly, without the function value
// BenchmarkStep goes through.
func BenchmarkCartPoleStep(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	e := classic.NewCartPole()
	e.Reset(rng)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, terminated, err := e.Step(i & 1)
		if err != nil {
			b.Fatal(err)
		}
		if terminated {
			e.Reset(rng)
		}
		sinkReward += r
	}
}

func BenchmarkObserve(b *testing.B) {
	for _, e := range allEnvs() {
		b.Run(e.name, func(b *testing.B) {
			e.reset(rand.New(rand.NewPCG(1, 2)))
			obs := make([]float32, e.obsLen)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.observe(obs)
			}
		})
	}
}

type scene interface {
	Reset(*rand.Rand)
	Render() *image.RGBA
	RenderTo(*image.RGBA)
}

func scenes() []struct {
	name string
	env  scene
} {
	return []struct {
		name string
		env  scene
	}{
		{"CartPole", classic.NewCartPole()},
		{"MountainCar", classic.NewMountainCar()},
		{"MountainCarContinuous", classic.NewMountainCarContinuous()},
		{"Pendulum", classic.NewPendulum()},
		{"Acrobot", classic.NewAcrobot()},
	}
}

// start resets a scene's env; Pendulum also takes a step so that its torque arrow is drawn, as
// on every frame of an episode but the first.
func start(b *testing.B, env scene) {
	env.Reset(rand.New(rand.NewPCG(1, 2)))
	if p, ok := env.(*classic.Pendulum); ok {
		if _, _, err := p.Step(1.5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderTo draws each scene into a reused frame; bytes are the frame's RGBA pixels.
func BenchmarkRenderTo(b *testing.B) {
	for _, s := range scenes() {
		b.Run(s.name, func(b *testing.B) {
			start(b, s.env)
			img := s.env.Render()
			b.SetBytes(int64(len(img.Pix)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.env.RenderTo(img)
			}
		})
	}
}

// BenchmarkRender draws each scene into a new frame, as Render does.
func BenchmarkRender(b *testing.B) {
	for _, s := range scenes() {
		b.Run(s.name, func(b *testing.B) {
			start(b, s.env)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkImage = s.env.Render()
			}
		})
	}
}
