package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gorl/gorl/algo"
)

// explainRestore completes an error of restoring the checkpoint at path
// into a run of rc: when the checkpoint's algorithm state has parts that
// rc's algorithm does not (algo.ErrState, "found part … instead"), it names
// the algorithms whose state has the checkpoint's parts, so that the user
// learns which algorithm wrote the file. Other errors are returned
// unchanged.
func explainRestore(path string, rc RunConfig, err error) error {
	if !errors.Is(err, algo.ErrState) || !partMismatch(err) {
		return err
	}
	state, ok := algorithmState(path)
	if !ok {
		return err
	}
	var holds []string
	for _, name := range algorithmNames() {
		if name == rc.Algo {
			continue
		}
		acfg, _ := algorithms[name].defaults(rc.Env)
		alg, berr := newAlgorithm(RunConfig{Algo: name, Env: rc.Env}, acfg)
		if berr != nil {
			continue
		}
		// The same parts with other sizes still name the algorithm.
		if lerr := alg.Load(bytes.NewReader(state)); lerr == nil || !partMismatch(lerr) {
			holds = append(holds, name)
		}
	}
	if len(holds) == 0 {
		return fmt.Errorf("%w (%s holds the state of another algorithm or network than this %s run's)", err, path, rc.Algo)
	}
	return fmt.Errorf("%w (%s holds the state of %s, not of this run's %s)", err, path, strings.Join(holds, " or "), rc.Algo)
}

// partMismatch reports whether a state error says that a file's parts are
// not those expected.
func partMismatch(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "found part") || strings.Contains(msg, "more parts than expected") || strings.Contains(msg, ": missing")
}

// algorithmState returns the bytes of the algorithm part of the
// checkpoint at path (the trainer writes its state, its random source and
// then the algorithm's).
func algorithmState(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	skip := func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }
	var state []byte
	// LoadParts fails on the parts after these; the algorithm's is read by
	// then.
	algo.LoadParts(f, algo.Part{Name: "trainer", Load: skip}, algo.Part{Name: "rng", Load: skip},
		algo.Part{Name: "algorithm", Load: func(r io.Reader) error {
			var err error
			state, err = io.ReadAll(r)
			return err
		}})
	return state, state != nil
}
