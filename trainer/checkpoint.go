package trainer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env/vector"
)

// savable is a buffer that writes itself (every buffer of package buffer).
type savable interface {
	Save(w io.Writer) error
}

// restoring is what Restore learns while reading a checkpoint.
type restoring struct {
	// trainEnvs and testEnvs are false when the checkpoint holds no state
	// of those envs (an env could not save its own).
	trainEnvs, testEnvs bool
}

// parts lists the checkpoint's parts, in order. r, when set, records what
// loading finds.
func (t *Trainer) parts(r *restoring) []algo.Part {
	if r == nil {
		r = &restoring{}
	}
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
			Load: func(rd io.Reader) error {
				var size int64
				if br, ok := rd.(*bytes.Reader); ok {
					size = int64(br.Len())
				} else {
					b, err := io.ReadAll(rd)
					if err != nil {
						return err
					}
					rd, size = bytes.NewReader(b), int64(len(b))
				}
				b, err := buffer.Load(rd, size)
				if err != nil {
					return err
				}
				// The collector's state, read next, goes into the
				// collector of the loaded buffer.
				return t.useBuffer(b)
			},
		},
	}
	if t.ov != nil {
		ps = append(ps, algo.Part{Name: "actor", Save: t.ov.actor.Save, Load: t.ov.actor.Load},
			algo.BinaryPart("collector_rng", t.ov.pcg))
	}
	if t.trainVec != nil {
		ps = append(ps, envsPart("train_envs", t.trainVec, &r.trainEnvs), algo.Part{
			Name: "train_collector",
			Save: func(w io.Writer) error {
				b, err := t.train.MarshalState()
				if err != nil {
					return err
				}
				_, err = w.Write(b)
				return err
			},
			Load: func(rd io.Reader) error {
				b, err := io.ReadAll(rd)
				if err != nil {
					return err
				}
				return t.train.UnmarshalState(b)
			},
		})
	}
	if t.testVec != nil {
		ps = append(ps, envsPart("test_envs", t.testVec, &r.testEnvs))
	}
	return ps
}

// envsPart saves the states of a vector env's envs, or nothing when one of
// them cannot save its state; found records whether a state was loaded.
func envsPart(name string, vec vector.Env, found *bool) algo.Part {
	return algo.Part{
		Name: name,
		Save: func(w io.Writer) error {
			b, err := vec.MarshalState()
			if errors.Is(err, errors.ErrUnsupported) {
				return nil
			}
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		},
		Load: func(rd io.Reader) error {
			b, err := io.ReadAll(rd)
			if err != nil || len(b) == 0 {
				return err
			}
			*found = true
			return vec.UnmarshalState(b)
		},
	}
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
// algorithm configuration, Config and Setup (the same number of envs of the
// same kinds), before Run: the algorithm's state (networks, optimizers,
// target networks, counters, random sources), the buffer, the trainer's
// counters, best return and random source, the envs' states and what the
// training collector keeps per env (last observations, hidden states,
// running returns). Run then continues with the epoch after the
// checkpoint's, as the interrupted run would have: for envs that save their
// state (env.Stater, such as the classic-control envs) a resumed run equals
// the uninterrupted one, except that the envs' last Infos are not saved.
//
// If an env cannot save its state, the checkpoint holds no state of its
// vector env: on Restore those envs are reset (with seeds derived from
// Setup.Seed and the checkpoint's epoch) and their episodes in progress are
// lost.
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
	var r restoring
	if err := algo.LoadParts(f, t.parts(&r)...); err != nil {
		return fmt.Errorf("trainer: restore %s: %w", path, err)
	}
	nTrain := uint64(len(t.setup.TrainEnvs))
	if t.train != nil && !r.trainEnvs {
		if err := t.train.Reset(ctx, seeds(t.setup.Seed+uint64(t.st.Epoch)<<32, int(nTrain))); err != nil {
			return err
		}
	}
	if t.test != nil && !r.testEnvs {
		if err := t.test.Reset(ctx, seeds(t.setup.Seed+nTrain+uint64(t.st.Epoch)<<32, len(t.setup.TestEnvs))); err != nil {
			return err
		}
	}
	return nil
}

// useBuffer makes b the training buffer, with a new training collector.
func (t *Trainer) useBuffer(b buffer.Buffer) error {
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
