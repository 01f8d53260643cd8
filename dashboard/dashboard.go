package dashboard

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The files of a run directory that the dashboard reads.
const (
	ConfigFile = "config.json"
	LogFile    = "log.jsonl"
)

// DefaultPoll is the interval at which a streamed log is checked when
// Config.Poll is zero.
const DefaultPoll = 500 * time.Millisecond

// maxConfig bounds the size of a config.json the server sends.
const maxConfig = 1 << 20

//go:embed static
var static embed.FS

// Config configures a Server.
type Config struct {
	// Dir is the runs directory; it must exist.
	Dir string `json:"dir"`
	// Poll is how often a streamed log is checked for new records,
	// truncation and deletion; zero means DefaultPoll.
	Poll time.Duration `json:"poll"`
	// Hosts are the host names, besides localhost and IP addresses, that
	// requests may name in their Host header (the name of the machine when
	// the dashboard listens beyond the loopback address); empty means none.
	Hosts []string `json:"hosts"`
}

// Validate reports whether the configuration is usable.
func (c Config) Validate() error {
	if c.Dir == "" {
		return errors.New("dashboard: no runs directory")
	}
	if c.Poll < 0 {
		return fmt.Errorf("dashboard: negative poll interval %v", c.Poll)
	}
	st, err := os.Stat(c.Dir)
	if err != nil {
		return fmt.Errorf("dashboard: runs directory: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("dashboard: runs directory %s is not a directory", c.Dir)
	}
	return nil
}

// Server is the dashboard's http.Handler. It is safe for concurrent use.
type Server struct {
	root  string // the runs directory, absolute, symbolic links resolved
	poll  time.Duration
	hosts []string
	mux   *http.ServeMux
}

// New returns a Server for the runs below cfg.Dir.
func New(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	root, err := filepath.Abs(cfg.Dir)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, fmt.Errorf("dashboard: runs directory: %w", err)
	}
	s := &Server{root: root, poll: cfg.Poll, hosts: slices.Clone(cfg.Hosts), mux: http.NewServeMux()}
	if s.poll == 0 {
		s.poll = DefaultPoll
	}
	page, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	s.mux.Handle("GET /{$}", http.FileServerFS(page))
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(page)))
	s.mux.HandleFunc("GET /api/runs", s.serveRuns)
	s.mux.HandleFunc("GET /api/config", s.serveConfig)
	s.mux.HandleFunc("GET /api/log", s.serveLog)
	s.mux.HandleFunc("GET /api/gif", s.serveGIF)
	return s, nil
}

// Dir returns the runs directory the server reads (absolute, with symbolic
// links resolved).
func (s *Server) Dir() string { return s.root }

// ServeHTTP answers a request (see the package documentation for the
// routes).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hostAllowed(r.Host) {
		http.Error(w, "host not allowed", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self'; object-src 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

// hostAllowed reports whether a request's Host header names an IP
// address, localhost or one of s.hosts.
func (s *Server) hostAllowed(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" || net.ParseIP(host) != nil || strings.EqualFold(host, "localhost") {
		return true
	}
	for _, h := range s.hosts {
		if strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

func (s *Server) serveRuns(w http.ResponseWriter, r *http.Request) {
	runs, err := Runs(s.root)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(runs)
}

// runDir returns the directory of the run named by the request's run
// parameter, or answers the request with an error and returns "".
func (s *Server) runDir(w http.ResponseWriter, r *http.Request) string {
	name := r.URL.Query().Get("run")
	dir, err := s.resolve(name)
	switch {
	case errors.Is(err, errBadName):
		http.Error(w, err.Error(), http.StatusBadRequest)
	case err != nil:
		http.Error(w, err.Error(), http.StatusNotFound)
	}
	return dir
}

func (s *Server) serveConfig(w http.ResponseWriter, r *http.Request) {
	dir := s.runDir(w, r)
	if dir == "" {
		return
	}
	f, err := openRegular(filepath.Join(dir, ConfigFile))
	if err != nil {
		http.Error(w, "no "+ConfigFile, http.StatusNotFound)
		return
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if len(b) > maxConfig {
		http.Error(w, ConfigFile+" too large", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

func (s *Server) serveGIF(w http.ResponseWriter, r *http.Request) {
	dir := s.runDir(w, r)
	if dir == "" {
		return
	}
	name, _ := newestGIF(dir)
	if name == "" {
		http.Error(w, "no GIF", http.StatusNotFound)
		return
	}
	f, err := openRegular(filepath.Join(dir, name))
	if err != nil {
		http.Error(w, "no GIF", http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/gif")
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// openRegular opens path for reading if it is a regular file, not a
// symbolic link or anything else.
func openRegular(path string) (*os.File, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Base(path))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st2, err := f.Stat(); err != nil || !os.SameFile(st, st2) {
		f.Close()
		return nil, fmt.Errorf("%s changed while opened", filepath.Base(path))
	}
	return f, nil
}
