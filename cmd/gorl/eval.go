package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"os"
	"path/filepath"

	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	episodes := fs.Int("episodes", 10, "number of episodes")
	envs := fs.Int("envs", 10, "number of envs running side by side")
	seed := fs.Uint64("seed", 1_000_000, "seed of the envs (env i gets seed+i)")
	explore := fs.Bool("explore", false, "let the policy explore (its test-time noise, such as DQN's ε)")
	gifPath := fs.String("gif", "", "write an animated GIF of one more episode (seed --seed) to this file")
	gifEvery := fs.Int("gif-every", 1, "keep every n-th frame in the GIF")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("eval: want one policy file or run directory, got %q", fs.Args())
	}
	path := fs.Arg(0)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, bestFile)
	}
	rc, pol, norm, err := loadPolicy(path)
	if err != nil {
		return err
	}
	if err := checkFinite(path, pol.Params()); err != nil {
		return err
	}
	pol.SetTrainingStep(false)
	if *episodes < 1 || *envs < 1 || *gifEvery < 1 {
		return fmt.Errorf("eval: --episodes, --envs and --gif-every must be positive")
	}
	n := min(*envs, *episodes)
	es, err := makeEnvs(rc.Env, n)
	if err == nil {
		es, err = normalizeEnvs(norm, es, false)
	}
	if err != nil {
		return err
	}
	v, err := vector.NewSync(es)
	if err != nil {
		return err
	}
	defer v.Close()
	c, err := collector.New(collector.Config{Env: v, Policy: pol, Explore: *explore})
	if err != nil {
		return err
	}
	sd := make([]env.Seed, n)
	for i := range sd {
		sd[i] = env.SeedOf(*seed + uint64(i))
	}
	if err := c.Reset(ctx, sd); err != nil {
		return err
	}
	st, err := c.Collect(ctx, collector.Request{NEpisode: *episodes})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s on %s, %d episodes: return %.2f ± %.2f (min %.1f, max %.1f), length %.1f\n",
		rc.Algo, rc.Env, st.Episodes, st.Return.Mean, st.Return.Std, st.Return.Min, st.Return.Max, st.Len.Mean)
	if *gifPath != "" {
		frames, ret, err := recordEpisode(rc.Env, norm, pol, env.SeedOf(*seed), *gifEvery)
		if err != nil {
			return err
		}
		if err := writeGIF(*gifPath, frames); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %d frames of an episode of return %.1f\n", *gifPath, len(frames), ret)
	}
	return nil
}

// recordEpisode runs one episode of a new env of id (behind norm's frozen
// statistics, when not nil) with p, acting on one observation at a time, and
// returns copies of its rendered frames (every n-th, and the last) and its
// return.
func recordEpisode(id string, norm *env.Normalizer, p policy.Policy, seed env.Seed, every int) ([]*image.Paletted, float64, error) {
	e, err := env.Make(id)
	if err == nil && norm != nil {
		e, err = norm.Wrap(e, false)
	}
	if err != nil {
		return nil, 0, err
	}
	defer e.Close()
	obs, _, err := e.Reset(seed)
	if err != nil {
		return nil, 0, err
	}
	var q quantizer
	var frames []*image.Paletted
	grab := func() error {
		img, err := env.Render(e)
		if err != nil {
			return fmt.Errorf("rendering %s: %w", id, err)
		}
		frames = append(frames, q.paletted(img))
		return nil
	}
	if err := grab(); err != nil {
		return nil, 0, err
	}
	total := 0.0
	for step := 1; ; step++ {
		o, ok := obs.(*nd.Array)
		if !ok {
			return nil, 0, fmt.Errorf("eval --gif: observations of %s are not arrays", id)
		}
		act, err := policy.ComputeAction(p, o)
		if err != nil {
			return nil, 0, err
		}
		var rew float64
		var term, trunc bool
		if obs, rew, term, trunc, _, err = e.Step(act); err != nil {
			return nil, 0, err
		}
		total += rew
		if step%every == 0 || term || trunc {
			if err := grab(); err != nil {
				return nil, 0, err
			}
		}
		if term || trunc {
			return frames, total, nil
		}
	}
}

// quantizer turns frames into paletted images: the palette grows with the
// colors met (the classic envs draw a few flat colors); beyond 256 colors,
// the nearest palette entry is used.
type quantizer struct {
	pal   color.Palette
	index map[color.RGBA]uint8
}

func (q *quantizer) paletted(img image.Image) *image.Paletted {
	if q.index == nil {
		q.index = map[color.RGBA]uint8{}
	}
	b := img.Bounds()
	out := image.NewPaletted(b, nil)
	var last color.RGBA
	var lastIdx uint8
	haveLast := false
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if haveLast && c == last {
				out.Pix[out.PixOffset(x, y)] = lastIdx
				continue
			}
			i, ok := q.index[c]
			if !ok {
				if len(q.pal) < 256 {
					i = uint8(len(q.pal))
					q.pal = append(q.pal, c)
				} else {
					i = uint8(q.pal.Index(c))
				}
				q.index[c] = i
			}
			out.Pix[out.PixOffset(x, y)] = i
			last, lastIdx, haveLast = c, i, true
		}
	}
	out.Palette = q.pal
	return out
}

// writeGIF writes frames as an animated GIF at 50 frames per second, all
// frames sharing the final palette.
func writeGIF(path string, frames []*image.Paletted) error {
	if len(frames) == 0 {
		return fmt.Errorf("no frames")
	}
	pal := frames[len(frames)-1].Palette
	g := &gif.GIF{}
	for _, f := range frames {
		f.Palette = pal
		g.Image = append(g.Image, f)
		g.Delay = append(g.Delay, 2)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := gif.EncodeAll(f, g); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
