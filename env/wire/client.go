package wire

import (
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/gorl/gorl/env"
)

// Errors of workers that are lost, tested with errors.Is.
var (
	// ErrExited is wrapped by the error of a call during which the worker
	// process ended (it crashed, called exit or was killed).
	ErrExited = errors.New("wire: worker exited")
	// ErrTimeout is wrapped by the error of a call the worker did not
	// answer within Options.Timeout; the worker has been killed.
	ErrTimeout = errors.New("wire: worker did not answer in time")
)

// Options configures a worker started by Start.
type Options struct {
	// Name names the env in errors, such as "gym:CartPole-v1".
	Name string
	// Timeout bounds every call (reset, step, render) from the request to
	// the reply; past it the worker is killed and the call fails with an
	// error wrapping ErrTimeout. Zero means no bound.
	Timeout time.Duration
	// StartTimeout bounds the wait for the worker's hello (the worker may
	// import large libraries first). Zero means one minute.
	StartTimeout time.Duration
	// Restart makes a lost worker (exited, killed after a timeout, or
	// sending malformed frames) a truncation rather than an error when it
	// is lost in Step: Step returns the last observation, a zero reward,
	// truncated, and an Info whose "worker_error" key holds the error,
	// and the next Reset starts a new worker. Without Restart, a lost
	// worker fails that call and every later one.
	Restart bool
	// OnLost, when set, is called with the error each time the worker is
	// lost, before the call returns.
	OnLost func(err error)
	// SharedMemory makes requests and replies travel through a memory
	// region shared with the worker rather than through the pipes, which
	// then only wake a side that sleeps (see the package doc). A worker
	// that does not take the region up keeps the pipes. Start fails where
	// the region is not supported (outside Linux on x86-64).
	SharedMemory bool
	// Spin is how long each side waits for the other by spinning on the
	// shared region before it sleeps on its pipe; zero means DefaultSpin,
	// a negative value no spinning.
	Spin time.Duration
}

// Env is an env.Env served by a worker process: every call is a request
// to the worker and waits for its reply. It is not safe for concurrent
// use. Errors name the env and the worker's process id; those of a lost
// worker carry the last lines the worker wrote to its stdout and stderr
// (a Python traceback, a Go panic's stack).
type Env struct {
	newCmd func() *exec.Cmd
	opts   Options
	hello  Hello
	obsL   *Layout
	actL   *Layout
	obs    *Decoder

	w    *worker // nil once lost or closed
	lost error   // why the last worker was lost
	out  enc
	// stepped reports that obs holds an observation to return on a lost
	// step.
	stepped bool
	closed  bool
}

// worker is one running worker process.
type worker struct {
	cmd  *exec.Cmd
	req  *os.File // requests, the worker's fd 3
	resp *os.File // replies, the worker's fd 4
	conn conn
	mem  []byte // the shared region, if offered
	tail *tail
}

// Start starts a worker with a command from newCmd (called again for each
// restart), reads its hello and returns the env it serves. The worker
// inherits the request pipe as fd 3 and the reply pipe as fd 4; its stdin
// is empty and its stdout and stderr are kept (the last lines) for error
// messages. On Linux the worker is killed when the calling process dies,
// and runs in a process group of its own, which Close kills.
//
// Start returns an error for a command that cannot start, a worker that
// exits or fails before its hello (with the worker's error and output) or
// does not send it within Options.StartTimeout, and a hello of another
// protocol version or with spaces the protocol cannot carry.
func Start(newCmd func() *exec.Cmd, opts Options) (*Env, error) {
	if !littleEndian() {
		return nil, errBigEndian
	}
	if opts.SharedMemory && !sharedSupported {
		return nil, errNoShared
	}
	e := &Env{newCmd: newCmd, opts: opts}
	if err := e.start(); err != nil {
		return nil, err
	}
	return e, nil
}

// start starts a worker and reads its hello; a restarted worker must
// describe the same spaces.
func (e *Env) start() error {
	cmd := e.newCmd()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return e.errorf("%w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return e.errorf("%w", err)
	}
	var shm *os.File
	var mem []byte
	if e.opts.SharedMemory {
		if shm, mem, err = newRegion(); err != nil {
			reqR.Close()
			reqW.Close()
			respR.Close()
			respW.Close()
			return e.errorf("creating the shared region: %w", err)
		}
		cmd.Env = append(cmd.Environ(), fmt.Sprintf("%s=%d", SharedVar, e.spin().Nanoseconds()))
	}
	t := &tail{}
	cmd.Stdin = nil
	cmd.Stdout = t
	cmd.Stderr = t
	cmd.ExtraFiles = []*os.File{reqR, respW}
	if shm != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, shm)
	}
	cmd.WaitDelay = time.Second
	setProcAttr(cmd)
	err = cmd.Start()
	reqR.Close()
	respW.Close()
	if shm != nil {
		shm.Close()
	}
	if err != nil {
		reqW.Close()
		respR.Close()
		if mem != nil {
			unmapRegion(mem)
		}
		return e.errorf("starting the worker: %w", err)
	}
	w := &worker{cmd: cmd, req: reqW, resp: respR, conn: newPipeConn(respR, reqW), mem: mem, tail: t}
	e.w = w
	d := e.opts.StartTimeout
	if d <= 0 {
		d = time.Minute
	}
	typ, p, err := e.read(d)
	if err != nil {
		return e.lose(err)
	}
	if typ == TypeError {
		err := decodeError(p)
		e.kill()
		return e.errorf("worker failed to start: %w", err)
	}
	if typ != TypeHello {
		return e.lose(protoErr("first frame is of type 0x%02x, not hello", typ))
	}
	h, err := decodeHello(p)
	if err != nil {
		return e.lose(err)
	}
	if h.SharedMemory {
		if mem == nil {
			return e.lose(protoErr("worker says it uses a shared region it was not offered"))
		}
		w.conn = newShmConn(mem, true, e.spin(), respR, reqW)
	}
	h.SharedMemory = false // the worker's choice, not a property of the env
	if e.obsL != nil {
		if !h.Obs.Equal(e.hello.Obs) || !h.Act.Equal(e.hello.Act) {
			return e.lose(protoErr("restarted worker has spaces %v, %v, not %v, %v", h.Obs, h.Act, e.hello.Obs, e.hello.Act))
		}
		return nil
	}
	if e.obsL, err = NewLayout(h.Obs); err == nil {
		e.actL, err = NewLayout(h.Act)
	}
	if err != nil {
		return e.lose(err)
	}
	e.hello = h
	e.obs = e.obsL.NewDecoder()
	return nil
}

// spin returns how long to spin on the shared region.
func (e *Env) spin() time.Duration {
	if e.opts.Spin == 0 {
		return DefaultSpin
	}
	return max(e.opts.Spin, 0)
}

// Pid returns the worker's process id, or 0 when it has been lost or
// closed.
func (e *Env) Pid() int {
	if e.w == nil {
		return 0
	}
	return e.w.cmd.Process.Pid
}

// Name returns the name the worker gave in its hello.
func (e *Env) Name() string { return e.hello.Name }

// ObservationSpace returns the observation space the worker described.
func (e *Env) ObservationSpace() env.Space { return e.hello.Obs }

// ActionSpace returns the action space the worker described.
func (e *Env) ActionSpace() env.Space { return e.hello.Act }

func (e *Env) errorf(format string, args ...any) error {
	name := e.opts.Name
	if name == "" {
		name = "env worker"
	}
	if e.w != nil {
		name = fmt.Sprintf("%s (pid %d)", name, e.w.cmd.Process.Pid)
	}
	return fmt.Errorf("%s: "+format, append([]any{name}, args...)...)
}

// ready returns the error of a call when there is no worker to answer it.
func (e *Env) ready() error {
	if e.closed {
		return e.errorf("use after Close")
	}
	if e.w == nil {
		if e.lost != nil {
			return e.lost
		}
		return e.errorf("no worker")
	}
	return nil
}

// call sends the frame in e.out and returns the reply, or the error of a
// lost worker.
func (e *Env) call() (byte, []byte, error) {
	w := e.w
	dl := deadline(e.opts.Timeout)
	if err := w.conn.send(e.out.finish(), dl); err != nil {
		return 0, nil, e.lose(err)
	}
	typ, p, err := w.conn.recv(dl)
	if err != nil {
		return 0, nil, e.lose(err)
	}
	return typ, p, nil
}

// read reads a frame within d (zero: no bound).
func (e *Env) read(d time.Duration) (byte, []byte, error) {
	return e.w.conn.recv(deadline(d))
}

// lose kills the worker after err (a failed read or write, a malformed
// frame), records and returns the error that names why it was lost.
func (e *Env) lose(err error) error {
	w := e.w
	var why error
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		why = ErrTimeout
	case errors.Is(err, ErrProtocol):
		why = err
	default:
		why = ErrExited
	}
	e.kill()
	status := w.cmd.ProcessState.String()
	msg := fmt.Sprintf("worker (pid %d) lost: %v", w.cmd.Process.Pid, err)
	if why == ErrTimeout {
		msg = fmt.Sprintf("worker (pid %d) did not answer within %v and was killed", w.cmd.Process.Pid, e.opts.Timeout)
	}
	name := e.opts.Name
	if name == "" {
		name = "env worker"
	}
	lost := fmt.Errorf("%s: %w: %s (%s)", name, why, msg, status)
	if out := w.tail.String(); out != "" {
		lost = fmt.Errorf("%w; the worker's last output:\n%s", lost, out)
	}
	e.lost = lost
	if e.opts.OnLost != nil {
		e.opts.OnLost(lost)
	}
	return lost
}

// kill ends the worker's process group and waits for the worker.
func (e *Env) kill() {
	w := e.w
	if w == nil {
		return
	}
	e.w = nil
	w.req.Close()
	killGroup(w.cmd)
	_ = w.cmd.Wait()
	w.resp.Close()
	w.unmap()
}

// unmap unmaps the shared region, once the worker has exited.
func (w *worker) unmap() {
	if w.mem != nil {
		unmapRegion(w.mem)
		w.mem = nil
	}
}

// Reset resets the env with seed and no options; see ResetOptions.
func (e *Env) Reset(seed env.Seed) (any, env.Info, error) {
	return e.ResetOptions(seed, nil)
}

// ResetOptions resets the env with seed and Gymnasium's reset options
// (sent as a JSON object; nil for none). With Options.Restart, a lost
// worker is started again first. The observation is owned by e and
// overwritten by its next call.
func (e *Env) ResetOptions(seed env.Seed, options map[string]any) (any, env.Info, error) {
	if e.closed {
		return nil, nil, e.ready()
	}
	if e.w == nil && e.opts.Restart && e.obsL != nil {
		if err := e.start(); err != nil {
			return nil, nil, err
		}
	}
	if err := e.ready(); err != nil {
		return nil, nil, err
	}
	if err := e.out.resetRequest(seed, options); err != nil {
		return nil, nil, e.errorf("%w", err)
	}
	typ, p, err := e.call()
	if err != nil {
		return nil, nil, err
	}
	switch typ {
	case TypeError:
		return nil, nil, e.remote(p)
	case TypeResetOK:
	default:
		return nil, nil, e.lose(protoErr("reply of type 0x%02x to reset", typ))
	}
	n := e.obsL.Size()
	if len(p) < n {
		return nil, nil, e.lose(protoErr("reset reply of %d bytes, the observation takes %d", len(p), n))
	}
	obs, err := e.obs.Decode(p[:n])
	if err != nil {
		return nil, nil, e.lose(err)
	}
	d := dec{b: p[n:]}
	info := d.info(0)
	if err := d.end("reset reply"); err != nil {
		return nil, nil, e.lose(err)
	}
	e.stepped = true
	return obs, info, nil
}

// remote returns the error of an error frame, or loses the worker if the
// frame is malformed or the worker refused a request as malformed.
func (e *Env) remote(p []byte) error {
	err := decodeError(p)
	var re *RemoteError
	if !errors.As(err, &re) || re.Kind == "protocol" {
		return e.lose(err)
	}
	return e.errorf("%w", err)
}

// Step sends action and returns the worker's reply. The observation is
// owned by e and overwritten by its next call. With Options.Restart, a
// worker lost during Step makes a truncated step (see Options).
func (e *Env) Step(action any) (any, float64, bool, bool, env.Info, error) {
	if err := e.ready(); err != nil {
		return nil, 0, false, false, nil, err
	}
	e.out.begin(TypeStep)
	if err := e.out.value(e.actL, action); err != nil {
		return nil, 0, false, false, nil, e.errorf("%w", err)
	}
	typ, p, err := e.call()
	if err == nil {
		switch typ {
		case TypeError:
			err = e.remote(p)
			if e.w != nil {
				return nil, 0, false, false, nil, err
			}
		case TypeStepOK:
			var obs any
			var rew float64
			var term, trunc bool
			var info env.Info
			if obs, rew, term, trunc, info, err = e.stepReply(p); err == nil {
				return obs, rew, term, trunc, info, nil
			}
			err = e.lose(err)
		default:
			err = e.lose(protoErr("reply of type 0x%02x to step", typ))
		}
	}
	if e.opts.Restart && e.stepped {
		e.stepped = false
		return e.obs.value, 0, false, true, env.Info{"worker_error": err.Error()}, nil
	}
	return nil, 0, false, false, nil, err
}

func (e *Env) stepReply(p []byte) (any, float64, bool, bool, env.Info, error) {
	n := e.obsL.Size()
	if len(p) < 9+n {
		return nil, 0, false, false, nil, protoErr("step reply of %d bytes, needs %d", len(p), 9+n)
	}
	d := dec{b: p}
	rew := math.Float64frombits(d.u64("reward"))
	flags := d.u8("flags")
	if flags > 3 {
		return nil, 0, false, false, nil, protoErr("step flags 0x%02x", flags)
	}
	obs, err := e.obs.Decode(d.take(n, "observation"))
	if err != nil {
		return nil, 0, false, false, nil, err
	}
	info := d.info(0)
	if err := d.end("step reply"); err != nil {
		return nil, 0, false, false, nil, err
	}
	return obs, rew, flags&1 != 0, flags&2 != 0, info, nil
}

// Render returns the worker's RGB frame; it returns an error wrapping
// errors.ErrUnsupported if the env cannot render.
func (e *Env) Render() (image.Image, error) {
	if err := e.ready(); err != nil {
		return nil, err
	}
	if !e.hello.Renders {
		return nil, e.errorf("cannot render: %w", errors.ErrUnsupported)
	}
	e.out.begin(TypeRender)
	typ, p, err := e.call()
	if err != nil {
		return nil, err
	}
	switch typ {
	case TypeError:
		return nil, e.remote(p)
	case TypeFrame:
		img, err := decodeFrame(p)
		if err != nil {
			return nil, e.lose(err)
		}
		return img, nil
	}
	return nil, e.lose(protoErr("reply of type 0x%02x to render", typ))
}

// closeWait bounds how long Close waits for a worker to close its env
// and exit before killing it.
const closeWait = 2 * time.Second

// Close asks the worker to close its env and exit, kills its process
// group if it has not done so within a short wait, and waits for it. It
// returns the env's error on close, if any. Later calls return nil.
func (e *Env) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	if e.w == nil {
		return nil
	}
	e.out.begin(TypeClose)
	saved := e.opts.Timeout
	e.opts.Timeout = closeWait
	typ, p, err := e.call()
	e.opts.Timeout = saved
	if err != nil {
		return nil // the worker was lost and has been killed
	}
	var cerr error
	if typ == TypeError {
		cerr = e.errorf("%w", decodeError(p))
	}
	w := e.w
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(closeWait):
			killGroup(w.cmd)
		}
	}()
	w.req.Close()
	_ = w.cmd.Wait()
	close(done)
	killGroup(w.cmd) // anything the worker left in its group
	w.resp.Close()
	w.unmap()
	e.w = nil
	return cerr
}

// tail keeps the last bytes written to it.
type tail struct {
	mu sync.Mutex
	b  []byte
}

const tailSize = 8 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > tailSize {
		t.b = append(t.b[:0], t.b[len(t.b)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

var _ io.Writer = (*tail)(nil)
