package trainer

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
)

// savable is a buffer that writes itself (every buffer of package buffer).
type savable interface {
	Save(w io.Writer) error
}

// parts lists the checkpoint's parts. load, when set, receives the buffer
// read back.
func (t *Trainer) parts(load func(buffer.Buffer)) []algo.Part {
	ps := []algo.Part{
		algo.JSONPart("trainer", &t.st),
		algo.BinaryPart("rng", t.src),
		{Name: "algorithm", Save: t.alg.Save, Load: t.alg.Load},
		{
			Name: "buffer",
			Save: func(w io.Writer) error {
				s, ok := t.buf.(savable)
				if !ok {
					return fmt.Errorf("trainer: a %T cannot be saved", t.buf)
				}
				return s.Save(w)
			},
			Load: func(r io.Reader) error {
				var size int64 = -1
				if br, ok := r.(*bytes.Reader); ok {
					size = int64(br.Len())
				} else {
					b, err := io.ReadAll(r)
					if err != nil {
						return err
					}
					r, size = bytes.NewReader(b), int64(len(b))
				}
				b, err := buffer.Load(r, size)
				if err != nil {
					return err
				}
				load(b)
				return nil
			},
		},
	}
	for _, v := range []struct {
		name string
		vec  vector.Env
	}{{"train_envs", t.trainVec}, {"test_envs", t.testVec}} {
		if v.vec == nil {
			continue
		}
		vec := v.vec
		ps = append(ps, algo.Part{
			Name: v.name,
			Save: func(w io.Writer) error {
				b, err := vec.MarshalState()
				if err != nil {
					return err
				}
				_, err = w.Write(b)
				return err
			},
			Load: func(r io.Reader) error {
				b, err := io.ReadAll(r)
				if err != nil {
					return err
				}
				return vec.UnmarshalState(b)
			},
		})
	}
	return ps
}

// save writes a checkpoint to path through a temporary file in the same
// directory, renamed over path once complete, so a crash never leaves a
// partial checkpoint.
func (t *Trainer) save(path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("trainer: checkpoint: %w", err)
	}
	defer os.Remove(f.Name()) // after a successful rename there is nothing to remove
	if err := algo.SaveParts(f, t.parts(nil)...); err != nil {
		f.Close()
		return fmt.Errorf("trainer: checkpoint: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("trainer: checkpoint: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("trainer: checkpoint: %w", err)
	}
	return nil
}

// Restore loads a checkpoint written by a trainer made with the same
// algorithm configuration, Config and Setup (the same number of envs of
// the same kinds), before Run: the algorithm's state (networks, optimizers,
// target networks, counters, random sources), the buffer, the trainer's
// counters, best return and random source, and the envs' states. Run then
// continues with the epoch after the checkpoint's, as the interrupted run
// would have.
//
// Envs that save their state (env.Stater, such as the classic-control
// envs) continue their episodes in progress exactly: the trainer saves the
// last observation and the running return of each with its state, so for
// such envs and policies without hidden state a resumed run equals the
// uninterrupted one. Envs that cannot save their state are reset, with seeds
// derived from Setup.Seed and the checkpoint's epoch, and their episodes in
// progress are lost. The policy's hidden state (recurrent policies) and an
// env's last Info are not saved: they start afresh.
//
// Restore returns an error wrapping algo.ErrState for a checkpoint that is
// corrupt or does not fit this trainer (another algorithm configuration,
// another number of envs), and the file's errors. After an error the
// trainer is in an undefined state and must be closed.
func (t *Trainer) Restore(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("trainer: restore: %w", err)
	}
	defer f.Close()
	var loaded buffer.Buffer
	if err := algo.LoadParts(f, t.parts(func(b buffer.Buffer) { loaded = b })...); err != nil {
		return fmt.Errorf("trainer: restore %s: %w", path, err)
	}
	if err := t.useBuffer(loaded); err != nil {
		return err
	}
	// A fresh collector resets every env first: resumable envs hand it the
	// observation saved with them; the others are really reset.
	if t.train != nil {
		sd := make([]env.Seed, len(t.trainEnvs))
		for i, e := range t.trainEnvs {
			if !e.resuming {
				sd[i] = env.SeedOf(t.setup.Seed + uint64(t.st.Epoch)<<32 + uint64(i))
			}
		}
		if err := t.train.Reset(ctx, sd); err != nil {
			return err
		}
	}
	return nil
}

// useBuffer makes b the training buffer, with a new training collector.
func (t *Trainer) useBuffer(b buffer.Buffer) error {
	if b == nil {
		return fmt.Errorf("%w: the checkpoint holds no buffer", algo.ErrState)
	}
	if t.buf != nil && (b.Cap() != t.buf.Cap() || fmt.Sprintf("%T", b) != fmt.Sprintf("%T", t.buf)) {
		return fmt.Errorf("%w: the checkpoint's buffer is a %T of %d transitions, this trainer's a %T of %d",
			algo.ErrState, b, b.Cap(), t.buf, t.buf.Cap())
	}
	t.buf = b
	if t.trainVec != nil {
		return t.newTrainCollector()
	}
	return nil
}
