//go:build linux && (amd64 || arm64)

package mujoco

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libraries are the file names tried, in order: Debian's libmujoco2.2.2
// package provides the first, libmujoco-dev the second.
var libraries = []string{"libmujoco.so.2.2.2", "libmujoco.so"}

// library holds the addresses of the MuJoCo functions this package calls.
// Every one takes only pointers and integers, so purego.SyscallN places
// its arguments correctly.
type library struct {
	loadXML, makeData, deleteData, deleteModel uintptr
	step, forward, resetData, rnePost, name2id uintptr
}

var (
	libOnce sync.Once
	lib     library
	libErr  error
	// loadMu serializes mj_loadXML, whose parser keeps global state.
	loadMu sync.Mutex
)

// loadLibrary loads libmujoco on first use and checks its version.
func loadLibrary() (*library, error) {
	libOnce.Do(func() { lib, libErr = openLibrary(libraries) })
	if libErr != nil {
		return nil, libErr
	}
	return &lib, nil
}

// openLibrary opens the first of names that loads.
func openLibrary(names []string) (library, error) {
	var (
		h   uintptr
		err error
	)
	for _, name := range names {
		if h, err = purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL); err == nil {
			break
		}
	}
	if err != nil {
		return library{}, fmt.Errorf("%w: %v (install Debian's libmujoco-dev, which brings libmujoco2.2.2: apt-get install libmujoco-dev)", ErrNoLibrary, err)
	}
	sym := func(s string) uintptr {
		if err != nil {
			return 0
		}
		var p uintptr
		if p, err = purego.Dlsym(h, s); err != nil {
			err = fmt.Errorf("%w: symbol %s: %v", ErrNoLibrary, s, err)
		}
		return p
	}
	version := sym("mj_version")
	l := library{
		loadXML: sym("mj_loadXML"), makeData: sym("mj_makeData"),
		deleteData: sym("mj_deleteData"), deleteModel: sym("mj_deleteModel"),
		step: sym("mj_step"), forward: sym("mj_forward"), resetData: sym("mj_resetData"),
		rnePost: sym("mj_rnePostConstraint"), name2id: sym("mj_name2id"),
	}
	userWarning := sym("mju_user_warning")
	if err != nil {
		return library{}, err
	}
	if v, _, _ := purego.SyscallN(version); int32(v) != headerVersion {
		return library{}, fmt.Errorf("%w: libmujoco reports version %d; this package reads the structures of version %d (Debian's libmujoco2.2.2)",
			ErrNoLibrary, int32(v), headerVersion)
	}
	// MuJoCo's own warning handler prints to standard output and appends
	// to MUJOCO_LOG.TXT in the working directory; this one keeps the text
	// for the error of the Step that caused it.
	*(*uintptr)(cPointer(userWarning)) = purego.NewCallback(keepWarning)
	return l, nil
}

// lastWarning is the text of MuJoCo's latest warning. The handler is one
// per process, so with several envs stepping at once the text may be
// another env's; each env detects its own warnings from its mjData.
var lastWarning struct {
	sync.Mutex
	text string
}

// keepWarning is MuJoCo's warning handler: msg is a NUL-terminated C string.
func keepWarning(msg uintptr) {
	var b []byte
	for i := uintptr(0); i < 1000; i++ {
		c := *(*byte)(cPointer(msg + i))
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	lastWarning.Lock()
	lastWarning.text = string(b)
	lastWarning.Unlock()
}

// warningText returns the text of MuJoCo's latest warning.
func warningText() string {
	lastWarning.Lock()
	defer lastWarning.Unlock()
	return lastWarning.text
}

// ErrNoLibrary is wrapped by the error of every constructor when libmujoco
// cannot be loaded: it is not installed, or it is another release than the
// one whose structure layout this package knows.
var ErrNoLibrary = errors.New("mujoco: libmujoco 2.2.2 not available")

// cPointer turns an address in C memory into a pointer, keeping go vet's
// unsafe.Pointer check satisfied; the memory is C's, not Go's.
func cPointer(addr uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&addr)) }

// cString returns s as a NUL-terminated byte slice for a C call.
func cString(s string) []byte { return append([]byte(s), 0) }

// compile compiles the MJCF text xml into an mjModel. The parser reads
// files, so the text goes through a temporary file that is removed at once.
func (l *library) compile(xml []byte) (uintptr, error) {
	f, err := os.CreateTemp("", "gorl-mujoco-*.xml")
	if err != nil {
		return 0, fmt.Errorf("mujoco: model file: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err = f.Write(xml); err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err != nil {
		return 0, fmt.Errorf("mujoco: model file: %w", err)
	}
	name := cString(f.Name())
	msg := make([]byte, 1000)
	loadMu.Lock()
	m, _, _ := purego.SyscallN(l.loadXML, uintptr(unsafe.Pointer(&name[0])), 0,
		uintptr(unsafe.Pointer(&msg[0])), uintptr(len(msg)))
	loadMu.Unlock()
	if m == 0 {
		return 0, fmt.Errorf("mujoco: compiling the model: %s", cText(msg))
	}
	return m, nil
}

// cText returns the NUL-terminated text at the start of b.
func cText(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

func (l *library) call(fn uintptr, args ...uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, args...)
	return r
}

// callMD calls fn(m, d) with md = {m, d}, a slice the caller keeps, so that
// the call does not allocate the variadic arguments of purego.SyscallN.
func (l *library) callMD(fn uintptr, md []uintptr) { purego.SyscallN(fn, md...) }
