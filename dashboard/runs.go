package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// maxDepth is how deep below the runs directory runs are looked for.
const maxDepth = 4

// Run describes one run directory.
type Run struct {
	// Name is the run's directory relative to the runs directory, with
	// slashes.
	Name string `json:"name"`
	// Algo, Env and Seed are read from config.json; empty (Seed nil) when
	// it is missing or does not say.
	Algo string  `json:"algo,omitempty"`
	Env  string  `json:"env,omitempty"`
	Seed *uint64 `json:"seed,omitempty"`
	// Modified is the latest modification time of config.json and
	// log.jsonl.
	Modified time.Time `json:"modified"`
	// LogSize is the size of log.jsonl in bytes (0 when there is none).
	LogSize int64 `json:"log_size"`
	// GIF is the name of the newest .gif file of the directory, and
	// GIFModified its modification time; empty when there is none.
	GIF         string    `json:"gif,omitempty"`
	GIFModified time.Time `json:"gif_modified"`
}

// Runs lists the runs below dir, most recently modified first: the
// directories, up to four levels down, holding a regular file config.json
// or log.jsonl. Hidden directories (a name starting with '.') and symbolic
// links are skipped, and the directories of a run are not searched for
// more runs. Directories that cannot be read are skipped.
func Runs(dir string) ([]Run, error) {
	var runs []Run
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return fs.SkipDir
		}
		if !d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel != "." && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if r, ok := readRun(p); ok && rel != "." {
			r.Name = rel
			runs = append(runs, r)
			return fs.SkipDir
		}
		if rel != "." && strings.Count(rel, "/")+1 >= maxDepth {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	slices.SortStableFunc(runs, func(a, b Run) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	if runs == nil {
		runs = []Run{}
	}
	return runs, nil
}

// readRun describes the run in dir; ok is false when dir is no run.
func readRun(dir string) (r Run, ok bool) {
	for _, name := range []string{ConfigFile, LogFile} {
		st, err := os.Lstat(filepath.Join(dir, name))
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		ok = true
		if st.ModTime().After(r.Modified) {
			r.Modified = st.ModTime()
		}
		if name == LogFile {
			r.LogSize = st.Size()
		}
	}
	if !ok {
		return r, false
	}
	if f, err := openRegular(filepath.Join(dir, ConfigFile)); err == nil {
		var head struct {
			Algo string  `json:"algo"`
			Env  string  `json:"env"`
			Seed *uint64 `json:"seed"`
		}
		if json.NewDecoder(io.LimitReader(f, maxConfig)).Decode(&head) == nil {
			r.Algo, r.Env, r.Seed = head.Algo, head.Env, head.Seed
		}
		f.Close()
	}
	r.GIF, r.GIFModified = newestGIF(dir)
	return r, true
}

// newestGIF returns the name and modification time of the most recently
// modified regular .gif file in dir, or "" when there is none.
func newestGIF(dir string) (string, time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", time.Time{}
	}
	var name string
	var mod time.Time
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.EqualFold(filepath.Ext(e.Name()), ".gif") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if name == "" || info.ModTime().After(mod) {
			name, mod = e.Name(), info.ModTime()
		}
	}
	return name, mod
}

// errBadName is the error of a run name that could point outside the runs
// directory.
var errBadName = errors.New("invalid run name")

// resolve returns the directory of the run called name. A name that is not
// a clean, local, slash-separated path of visible directories, or that
// leads out of the runs directory through a symbolic link, is an error
// wrapping errBadName; a name of no run is another error.
func (s *Server) resolve(name string) (string, error) {
	bad := fmt.Errorf("%w %q", errBadName, name)
	if name == "" || strings.ContainsAny(name, "\\\x00") || path.Clean(name) != name || !filepath.IsLocal(filepath.FromSlash(name)) {
		return "", bad
	}
	for _, elem := range strings.Split(name, "/") {
		if strings.HasPrefix(elem, ".") {
			return "", bad
		}
	}
	dir := filepath.Join(s.root, filepath.FromSlash(name))
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("no run %q", name)
	}
	if rel, err := filepath.Rel(s.root, real); err != nil || !filepath.IsLocal(rel) {
		return "", bad
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("no run %q", name)
	}
	if _, ok := readRun(real); !ok {
		return "", fmt.Errorf("no run %q", name)
	}
	return real, nil
}
