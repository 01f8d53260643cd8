package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"text/tabwriter"
)

// presetFiles holds the hyperparameter presets, one file per (algorithm,
// env) pair named ALGO-ENV.json, in the style of rl-baselines3-zoo's tuned
// files. A file is an object with two keys: "source", where its values come
// from (Tianshou's test settings, rl-zoo's translated, or our own tuning
// with the learning matrix's figure), and "config", a fragment of a run
// configuration as --config takes it; an optional third, "matrix_steps",
// cuts the pair's matrix runs to fewer env steps than its bar allows.
//
//go:embed presets/*.json
var presetFiles embed.FS

// preset is one parsed preset file.
type preset struct {
	Algo, Env string
	Source    string
	// Config is the run configuration fragment.
	Config json.RawMessage
	// MatrixSteps, when above 0, is the env steps (prefill included) a
	// matrix run of the pair gets where its bar allows more: what the
	// seeds that reach the bar need, with a margin, so that a seed that
	// does not reach it stops there instead of spending the bar's steps.
	MatrixSteps int
}

// presets returns every embedded preset, sorted by algorithm then env. It
// returns an error for a file that is not a valid preset, which the tests
// catch before a release.
func presets() ([]preset, error) {
	names, err := presetFiles.ReadDir("presets")
	if err != nil {
		return nil, err
	}
	var ps []preset
	for _, n := range names {
		p, err := readPreset(n.Name())
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b preset) int {
		return strings.Compare(a.Algo+"\x00"+a.Env, b.Algo+"\x00"+b.Env)
	})
	return ps, nil
}

// readPreset parses the preset file name (ALGO-ENV.json). An algorithm's
// name may hold hyphens (discrete-sac); the env's ID starts at the first
// hyphen followed by a capital letter, as Gymnasium's IDs do.
func readPreset(name string) (preset, error) {
	base, ok := strings.CutSuffix(name, ".json")
	algoName, envID, ok2 := cutEnv(base)
	if !ok || !ok2 || algoName == "" || envID == "" {
		return preset{}, fmt.Errorf("preset %s: want a name ALGO-ENV.json", name)
	}
	b, err := presetFiles.ReadFile(path.Join("presets", name))
	if err != nil {
		return preset{}, err
	}
	var f struct {
		Source      string          `json:"source"`
		Config      json.RawMessage `json:"config"`
		MatrixSteps int             `json:"matrix_steps"`
	}
	if err := strictDecode(b, &f); err != nil {
		return preset{}, fmt.Errorf("preset %s: %w", name, err)
	}
	if f.Source == "" || len(bytes.TrimSpace(f.Config)) == 0 {
		return preset{}, fmt.Errorf("preset %s: want a source and a config", name)
	}
	if f.MatrixSteps < 0 {
		return preset{}, fmt.Errorf("preset %s: matrix_steps %d; want ≥ 0", name, f.MatrixSteps)
	}
	return preset{Algo: algoName, Env: envID, Source: f.Source, Config: f.Config, MatrixSteps: f.MatrixSteps}, nil
}

// cutEnv splits ALGO-ENV at the first hyphen followed by a capital letter.
func cutEnv(base string) (algoName, envID string, ok bool) {
	for i := 0; i+1 < len(base); i++ {
		if base[i] == '-' && base[i+1] >= 'A' && base[i+1] <= 'Z' {
			return base[:i], base[i+1:], true
		}
	}
	return "", "", false
}

// lookupPreset returns the preset of the pair, if there is one.
func lookupPreset(algoName, envID string) (preset, bool, error) {
	name := algoName + "-" + envID + ".json"
	if _, err := fs.Stat(presetFiles, path.Join("presets", name)); err != nil {
		return preset{}, false, nil
	}
	p, err := readPreset(name)
	return p, err == nil, err
}

// cmdListPresets prints the presets and their sources.
func cmdListPresets(stdout io.Writer) error {
	ps, err := presets()
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ALGORITHM\tENV\tSOURCE")
	for _, p := range ps {
		fmt.Fprintf(w, "%s\t%s\t%s\n", p.Algo, p.Env, p.Source)
	}
	return w.Flush()
}

// applyPreset merges the pair's preset, if it has one, into doc, a run
// configuration as a JSON object.
func applyPreset(doc map[string]any, algoName, envID string) error {
	p, ok, err := lookupPreset(algoName, envID)
	if !ok {
		return err
	}
	var over map[string]any
	if err := json.Unmarshal(p.Config, &over); err != nil {
		return fmt.Errorf("preset %s-%s: %w", algoName, envID, err)
	}
	delete(over, "algo")
	delete(over, "env")
	merge(doc, over)
	return nil
}
