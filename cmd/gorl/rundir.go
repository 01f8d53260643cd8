package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorl/gorl/logger"
)

// More files of a run directory.
const (
	// lockFile marks a directory in use by a run (see lockRun).
	lockFile = "gorl.lock"
	// resumesFile records each resume of a run: when, from which
	// checkpoint, and the settings it changed (resumeRecord, one JSON
	// object a line).
	resumesFile = "resumes.jsonl"
	// eventsPrefix starts the names of TensorBoard event files.
	eventsPrefix = "events.out.tfevents."
)

// runFiles returns the names of the files in dir that a run wrote, sorted;
// none for a missing directory.
func runFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); isRunFile(n) {
			names = append(names, n)
		}
	}
	return names, nil
}

// isRunFile reports whether name is one of the files of a run, or a
// temporary file a run was writing one of them to.
func isRunFile(name string) bool {
	if strings.HasPrefix(name, eventsPrefix) {
		return true
	}
	for _, f := range []string{configFile, logFile, bestFile, lastFile, checkpointFile, resumesFile, curveFile} {
		if name == f || strings.HasPrefix(name, f+".tmp") {
			return true
		}
	}
	return false
}

// openRun makes dir ready for a run and locks it (see lockRun). A resumed
// run needs a run there (its config.json); a new run needs none, unless
// overwrite is set, which first removes the files of the run there (and
// nothing else: the directory may hold other files). release drops the
// lock.
func openRun(dir string, resume, overwrite bool) (release func(), err error) {
	if resume {
		if _, err := os.Stat(filepath.Join(dir, configFile)); err != nil {
			return nil, fmt.Errorf("train: --resume: %s holds no run (no readable %s): %w", dir, configFile, err)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	release, err = lockRun(dir)
	if err != nil {
		return nil, err
	}
	if resume {
		return release, nil
	}
	names, err := runFiles(dir)
	if err != nil {
		release()
		return nil, err
	}
	if len(names) > 0 && !overwrite {
		release()
		if len(names) > 3 {
			names = append(names[:3], "…")
		}
		return nil, fmt.Errorf("train: %s already holds a run (%s): continue it with --resume, replace it with --overwrite, or choose another --logdir",
			dir, strings.Join(names, ", "))
	}
	for _, n := range names {
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			release()
			return nil, fmt.Errorf("train: --overwrite: %w", err)
		}
	}
	return release, nil
}

// busyError is the error for a run directory locked by process pid (0 if
// unknown).
func busyError(dir string, pid int) error {
	who := "another gorl run"
	if pid > 0 {
		who += " (process " + strconv.Itoa(pid) + ")"
	}
	return fmt.Errorf("train: %s is in use by %s: wait for it to end, or choose another --logdir", dir, who)
}

// readPID reads the process id written in a lock file; 0 if there is none.
func readPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	return pid
}

// mutableOnResume lists the settings a resumed run may change: when the
// run stops, how it is tested and logged, and how its envs are stepped.
// Every other setting shapes what the checkpoint holds (networks,
// optimizer, buffer, envs, random state) or how it goes on learning, and
// stays as the run began.
var mutableOnResume = []string{"trainer.epochs", "trainer.reward_threshold", "trainer.test_episodes", "trainer.log_interval", "async", "step_timeout", "allow_non_finite"}

// change is one setting changed on resume, its old and new JSON values.
type change struct {
	From json.RawMessage `json:"from"`
	To   json.RawMessage `json:"to"`
}

// resumeChanges compares the configuration of a run (old) with the one a
// resume asks for (now). It returns the changed settings by dotted path,
// or an error naming the first that may not change.
func resumeChanges(old, now RunConfig) (map[string]change, error) {
	a, b := map[string]string{}, map[string]string{}
	for _, c := range []struct {
		rc   RunConfig
		flat map[string]string
	}{{old, a}, {now, b}} {
		m, err := toMap(c.rc)
		if err != nil {
			return nil, err
		}
		flatten("", m, c.flat)
	}
	paths := map[string]bool{}
	for p := range a {
		paths[p] = true
	}
	for p := range b {
		paths[p] = true
	}
	changes := map[string]change{}
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		from, to := a[p], b[p]
		if from == to {
			continue
		}
		if from == "" {
			from = "absent"
		}
		if to == "" {
			to = "absent"
		}
		if !slices.ContainsFunc(mutableOnResume, func(m string) bool { return p == m || strings.HasPrefix(p, m+".") }) {
			return nil, fmt.Errorf("train: --resume cannot change %s (the run has %s, asked %s): the checkpoint goes on with the run as it began; "+
				"start a new run in another --logdir for that (settings a resume may change: %s)",
				p, from, to, strings.Join(mutableOnResume, ", "))
		}
		changes[p] = change{From: json.RawMessage(from), To: json.RawMessage(to)}
	}
	return changes, nil
}

// flatten stores the leaves of v (anything but a non-empty object) in out
// by dotted path, as JSON.
func flatten(path string, v any, out map[string]string) {
	if m, ok := v.(map[string]any); ok && len(m) > 0 {
		for k, x := range m {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(p, x, out)
		}
		return
	}
	b, _ := json.Marshal(v)
	out[path] = string(b)
}

// checkResumeHead refuses a resume that names another algorithm or env
// than the run's, before the configuration is read as the other's.
func checkResumeHead(dir, runAlgo, runEnv, algoName, envID string, given map[string]bool) error {
	for _, c := range []struct{ flag, run, asked string }{{"algo", runAlgo, algoName}, {"env", runEnv, envID}} {
		if given[c.flag] && c.asked != c.run {
			return fmt.Errorf("train: --resume cannot change %s: the run in %s is %s, not %s; start a new run in another --logdir for %s",
				c.flag, dir, c.run, c.asked, c.asked)
		}
	}
	return nil
}

// resumeRecord is a line of resumes.jsonl.
type resumeRecord struct {
	Time string `json:"time"`
	// Epoch, EnvSteps and GradientSteps are those of the checkpoint the
	// run resumed from; StartedOver is set when there was none.
	Epoch         int               `json:"epoch"`
	EnvSteps      int64             `json:"env_steps"`
	GradientSteps int64             `json:"gradient_steps"`
	StartedOver   bool              `json:"started_over,omitempty"`
	Changes       map[string]change `json:"changes,omitempty"`
	// Dropped counts the log records written after the checkpoint, which
	// the resumed run writes again.
	Dropped int `json:"dropped_records"`
}

// appendResume adds r to the run's resumes.jsonl.
func appendResume(dir string, r resumeRecord) error {
	r.Time = time.Now().UTC().Format(time.RFC3339)
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, resumesFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cutLogs cuts the logs of the run in dir after step, the checkpoint's
// (-1 when the run starts over): log.jsonl and every event file but
// current, the one the resumed run writes. An event file left without
// records is removed. The resumed run writes again what was cut, so each
// step is logged once, in log.jsonl and across the event files: TensorBoard
// itself would hide the older of two records at one step (it drops
// earlier events at or past a step that goes back), but other readers of
// event files would show both. It returns the number of records dropped
// from log.jsonl.
func cutLogs(dir string, step int64, current string) (int, error) {
	dropped, err := logger.TruncateJSONL(filepath.Join(dir, logFile), step)
	if err != nil {
		return 0, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	for _, e := range ents {
		path := filepath.Join(dir, e.Name())
		if !strings.HasPrefix(e.Name(), eventsPrefix) || e.IsDir() || sameFile(path, current) {
			continue
		}
		kept, _, err := logger.TruncateEvents(path, step)
		if err != nil {
			return 0, err
		}
		if kept == 0 {
			if err := os.Remove(path); err != nil {
				return 0, err
			}
		}
	}
	return dropped, nil
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// checkpointState is what a run's checkpoint holds as far as the command
// tells the user: ok is false while there is none.
type checkpointState struct {
	ok                  bool
	epoch               int
	envSteps, gradSteps int64
}

// reportInterrupt tells, on w, where an interrupted run in dir stopped
// (epoch is the one in progress) and how to continue it.
func reportInterrupt(w io.Writer, dir string, epoch int, envSteps, gradSteps int64, ckpt checkpointState) {
	fmt.Fprintf(w, "gorl: the run stopped in epoch %d after %d env steps and %d updates.\n", epoch, envSteps, gradSteps)
	cmd := "gorl train --resume --logdir " + shellQuote(dir)
	if !ckpt.ok {
		fmt.Fprintf(w, "gorl: it wrote no checkpoint yet (one is written at the end of every epoch); this command starts it over:\n  %s\n", cmd)
		return
	}
	fmt.Fprintf(w, "gorl: its checkpoint %s holds epoch %d (%d env steps, %d updates); continue the run with:\n  %s\n",
		filepath.Join(dir, checkpointFile), ckpt.epoch, ckpt.envSteps, ckpt.gradSteps, cmd)
}

// shellQuote quotes s for a POSIX shell where it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// resumeRun restores the trainer of s from the checkpoint of the run in
// dir or, when the run wrote none, lets it start over; then it cuts the
// run's logs after the checkpoint's step (all of them when it starts over;
// current is the event file of the resumed run) and records the resume
// with the changed settings.
func resumeRun(ctx context.Context, s *session, dir, current string, changes map[string]change, stdout io.Writer) (checkpointState, error) {
	path := filepath.Join(dir, checkpointFile)
	var ckpt checkpointState
	step := int64(-1)
	_, err := os.Stat(path)
	switch {
	case err == nil:
		if err := s.tr.Restore(ctx, path); err != nil {
			return ckpt, explainRestore(path, s.rc, err)
		}
		ckpt.ok = true
		ckpt.epoch, ckpt.envSteps, ckpt.gradSteps = s.tr.Progress()
		step = ckpt.envSteps
		if s.rc.TrainEnvs == 0 { // the offline trainer logs at gradient steps
			step = ckpt.gradSteps
		}
	case !errors.Is(err, os.ErrNotExist):
		return ckpt, err
	}
	dropped, err := cutLogs(dir, step, current)
	if err != nil {
		return ckpt, fmt.Errorf("train: --resume: %w", err)
	}
	rec := resumeRecord{Epoch: ckpt.epoch, EnvSteps: ckpt.envSteps, GradientSteps: ckpt.gradSteps,
		StartedOver: !ckpt.ok, Changes: changes, Dropped: dropped}
	if err := appendResume(dir, rec); err != nil {
		return ckpt, err
	}
	if ckpt.ok {
		fmt.Fprintf(stdout, "resuming from the checkpoint of epoch %d (%d env steps, %d updates)", ckpt.epoch, ckpt.envSteps, ckpt.gradSteps)
		if dropped > 0 {
			fmt.Fprintf(stdout, "; %d log records written after it are dropped, to be written again", dropped)
		}
		fmt.Fprintln(stdout)
	} else {
		fmt.Fprintf(stdout, "%s holds no checkpoint (the run stopped before its first epoch ended): the run starts over\n", dir)
	}
	for _, p := range slices.Sorted(maps.Keys(changes)) {
		fmt.Fprintf(stdout, "changed on resume: %s %s → %s\n", p, changes[p].From, changes[p].To)
	}
	return ckpt, nil
}
