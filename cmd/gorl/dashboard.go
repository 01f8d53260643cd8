package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/gorl/gorl/dashboard"
)

// dashboardAddr is the address gorl dashboard and train --dashboard listen
// on unless told otherwise: the loopback address, so that only this
// machine can read the runs.
const dashboardAddr = "127.0.0.1:6006"

func cmdDashboard(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dashboard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gorl dashboard [RUNS_DIR] [--addr HOST:PORT]\n\nServes a read-only web page of the runs in RUNS_DIR (default runs): their configs, live learning curves and eval GIFs.")
		fs.PrintDefaults()
	}
	addr := fs.String("addr", dashboardAddr, "address to listen on (a port of 0 picks a free one); a non-loopback address lets other machines read the runs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir := "runs"
	if fs.NArg() > 0 { // the directory may come before the flags
		dir = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return fmt.Errorf("dashboard: unexpected arguments %q", fs.Args())
		}
	}
	// A run directory given instead of the runs directory: serve its
	// parent and open the page on the run.
	var run string
	if isRunDir(dir) {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		dir, run = filepath.Dir(abs), filepath.Base(abs)
	}
	d, err := startDashboard(dir, *addr, run)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "dashboard of %s at %s (read-only; Ctrl-C stops it)\n", dir, d.url)
	if !d.loopback {
		fmt.Fprintln(stderr, "gorl: warning: the dashboard listens beyond the loopback address: whoever reaches this machine can read the runs")
	}
	<-ctx.Done()
	return d.stop()
}

// isRunDir reports whether dir holds a run's config.json or log.jsonl.
func isRunDir(dir string) bool {
	for _, f := range []string{configFile, logFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// runningDashboard is a dashboard server started by startDashboard.
type runningDashboard struct {
	url      string // the page, on the run when one was named
	loopback bool   // whether it listens on the loopback address only
	stop     func() error
}

// startDashboard serves the dashboard of the runs in dir on addr until
// stop is called; run, when not empty, is the run the page opens on.
func startDashboard(dir, addr, run string) (*runningDashboard, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: --addr %q: %w", addr, err)
	}
	cfg := dashboard.Config{Dir: dir}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	if !loopback {
		// Let the page be opened by the names of this machine.
		if host != "" && ip == nil {
			cfg.Hosts = append(cfg.Hosts, host)
		}
		if name, err := os.Hostname(); err == nil {
			cfg.Hosts = append(cfg.Hosts, name)
		}
	}
	h, err := dashboard.New(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	base, cancel := context.WithCancel(context.Background())
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// The log streams end with this context, so that Shutdown need
		// not wait for them.
		BaseContext: func(net.Listener) context.Context { return base },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	shown := ln.Addr().(*net.TCPAddr)
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, fmt.Sprint(shown.Port)), Path: "/"}
	if host == "" || ip != nil && ip.IsUnspecified() {
		u.Host = net.JoinHostPort("localhost", fmt.Sprint(shown.Port))
	}
	if run != "" {
		u.RawQuery = url.Values{"run": {run}}.Encode()
	}
	stop := func() error {
		cancel()
		ctx, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		err := srv.Shutdown(ctx)
		if serr := <-served; !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = serr
		}
		return err
	}
	return &runningDashboard{url: u.String(), loopback: loopback, stop: stop}, nil
}

// startTrainDashboard serves the dashboard of the runs beside the run in
// logdir, open on that run, on dashboardAddr or, when that is taken, a
// free loopback port. It prints the page's address to stdout; stop ends
// the server.
func startTrainDashboard(logdir string, stdout io.Writer) (stop func(), err error) {
	abs, err := filepath.Abs(logdir)
	if err != nil {
		return nil, err
	}
	dir, run := filepath.Dir(abs), filepath.Base(abs)
	d, err := startDashboard(dir, dashboardAddr, run)
	if err != nil {
		d, err = startDashboard(dir, "127.0.0.1:0", run)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "dashboard at %s\n", d.url)
	return func() { _ = d.stop() }, nil
}
