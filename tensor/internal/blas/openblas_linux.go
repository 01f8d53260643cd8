//go:build linux && (amd64 || arm64) && !gorl_noopenblas

package blas

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gorl/gorl/internal/par"
)

// libraries are the file names tried, in order: Debian's libopenblas0 package
// provides the first, the -dev package the second.
var libraries = []string{"libopenblas.so.0", "libopenblas.so"}

// sgemmFn is the address of OpenBLAS's Fortran-interface sgemm_. The Fortran
// interface passes every argument by pointer, so purego.SyscallN, which only
// places integer arguments correctly, can call it; cblas_sgemm takes its
// scalars in floating-point registers.
var sgemmFn uintptr

func loadOpenBLAS() (gemmFunc, string, error) {
	// OpenBLAS reads OPENBLAS_NUM_THREADS and OPENBLAS_CORETYPE once, while
	// it is loaded. Where the user left them unset, they are set for the
	// load only: one thread, so that OpenBLAS starts no worker threads
	// (which would spin at start-up on the cores the program's goroutines
	// use), and the core type for the CPU. The variables are restored right
	// after, so the process environment stays as the user set it.
	oneThread := os.Getenv("OPENBLAS_NUM_THREADS") == ""
	vars := map[string]string{"OPENBLAS_CORETYPE": coreType()}
	if oneThread {
		vars["OPENBLAS_NUM_THREADS"] = "1"
	}
	restore := setForLoad(vars)
	var (
		h   uintptr
		err error
	)
	for _, lib := range libraries {
		if h, err = purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_LOCAL); err == nil {
			break
		}
	}
	restore()
	if err != nil {
		return nil, "", fmt.Errorf("blas: loading OpenBLAS: %w", err)
	}
	sym := func(s string) uintptr {
		if err != nil {
			return 0
		}
		var p uintptr
		p, err = purego.Dlsym(h, s)
		if err != nil {
			err = fmt.Errorf("blas: OpenBLAS symbol %s: %w", s, err)
		}
		return p
	}
	sgemm := sym("sgemm_")
	setThreads := sym("openblas_set_num_threads")
	getThreads := sym("openblas_get_num_threads")
	coreName := sym("openblas_get_corename")
	config := sym("openblas_get_config")
	if err != nil {
		return nil, "", err
	}
	if oneThread {
		// The thread count that holds from now on, also where the library
		// was loaded before and read no variable of ours.
		purego.SyscallN(setThreads, 1)
	}
	threads, _, _ := purego.SyscallN(getThreads)
	core, _, _ := purego.SyscallN(coreName)
	conf, _, _ := purego.SyscallN(config)
	version, release := "openblas", ""
	if f := strings.Fields(cString(conf)); len(f) >= 2 {
		version, release = strings.ToLower(f[0])+" "+f[1], f[1]
	}
	plural := "s"
	if int32(threads) == 1 {
		plural = ""
	}
	sgemmFn = sgemm
	f := openblasGemm
	if hasSmallKernels(release, cString(core)) {
		f = openblasSplit
	}
	return f, fmt.Sprintf("%s (%s, %d thread%s)", version, cString(core), int32(threads), plural), nil
}

// hasSmallKernels reports whether OpenBLAS of the given release ("0.3.21")
// has its small-matrix kernels for the core it runs (see splitPlan). 0.3.21
// is the release measured; with older ones, whose kernels and limits were
// not checked, products stay whole.
func hasSmallKernels(release, core string) bool {
	var major, minor, patch int
	if n, _ := fmt.Sscanf(release, "%d.%d.%d", &major, &minor, &patch); n != 3 ||
		major == 0 && (minor < 3 || minor == 3 && patch < 21) {
		return false
	}
	for _, c := range []string{"SkylakeX", "Cooperlake", "SapphireRapids"} {
		if strings.EqualFold(core, c) {
			return true
		}
	}
	return false
}

// openblasSplit is openblasGemm, cutting products as splitPlan says.
func openblasSplit(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if nb, kb, ok := splitPlan(tA, tB, m, n, k); ok {
		splitGemm(openblasGemm, nb, kb, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	openblasGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// cString copies a NUL-terminated C string.
func cString(p uintptr) string {
	if p == 0 {
		return ""
	}
	// Reinterpreting the variable, rather than converting the integer, keeps
	// go vet's unsafe.Pointer check satisfied; the memory is C's, not Go's.
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	var b strings.Builder
	for ; *(*byte)(ptr) != 0; ptr = unsafe.Add(ptr, 1) {
		b.WriteByte(*(*byte)(ptr))
	}
	return b.String()
}

// setForLoad sets each variable of vars with a non-empty value that the
// environment leaves empty or unset, and returns the function that restores
// them as they were (unset, or set to the empty string).
func setForLoad(vars map[string]string) (restore func()) {
	type saved struct {
		key, val string
		set      bool
	}
	var undo []saved
	for k, v := range vars {
		old, set := os.LookupEnv(k)
		if v == "" || old != "" {
			continue
		}
		if os.Setenv(k, v) == nil {
			undo = append(undo, saved{k, old, set})
		}
	}
	return func() {
		for _, u := range undo {
			if u.set {
				os.Setenv(u.key, u.val)
			} else {
				os.Unsetenv(u.key)
			}
		}
	}
}

// coreType returns the OPENBLAS_CORETYPE for the CPU's features on amd64
// (see the package documentation), or "" to leave the choice to OpenBLAS.
func coreType() string {
	if runtime.GOARCH != "amd64" {
		return ""
	}
	flags := cpuFlags()
	has := func(names ...string) bool {
		for _, n := range names {
			if !flags[n] {
				return false
			}
		}
		return true
	}
	switch {
	case has("avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd"):
		return "SkylakeX"
	case has("avx2", "fma"):
		return "Haswell"
	}
	return ""
}

// cpuFlags reads the feature flags of the first processor in /proc/cpuinfo.
func cpuFlags() map[string]bool {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(key) != "flags" {
			continue
		}
		m := make(map[string]bool)
		for _, fl := range strings.Fields(val) {
			m[fl] = true
		}
		return m
	}
	return nil
}

// sgemmArgs holds the by-pointer scalars of one sgemm_ call and the argument
// list itself, so that a call allocates nothing once the free list is warm.
type sgemmArgs struct {
	transA, transB byte
	m, n, k        int32
	lda, ldb, ldc  int32
	alpha, beta    float32
	args           [13]uintptr
}

// argPool is a free list rather than a sync.Pool: a goroutine of the
// worker pool that moved to another processor would miss a sync.Pool's
// per-processor value and allocate.
var argPool par.Free[sgemmArgs]

// errTooLarge is the panic value for dimensions beyond OpenBLAS's 32-bit
// integers.
var errTooLarge = errors.New("blas: matrix dimension exceeds 2³¹−1")

// openblasGemm computes the row-major product as the column-major product
// Cᵀ = op(B)ᵀ·op(A)ᵀ, which is what sgemm_ sees when handed the same memory.
func openblasGemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for _, d := range [...]int{m, n, k, lda, ldb, ldc} {
		if d > math.MaxInt32 {
			panic(errTooLarge)
		}
	}
	p := argPool.Get()
	p.transA, p.transB = 'N', 'N'
	if tB {
		p.transA = 'T'
	}
	if tA {
		p.transB = 'T'
	}
	p.m, p.n, p.k = int32(n), int32(m), int32(k)
	p.lda, p.ldb, p.ldc = int32(ldb), int32(lda), int32(ldc)
	p.alpha, p.beta = alpha, beta
	p.args = [13]uintptr{
		uintptr(unsafe.Pointer(&p.transA)), uintptr(unsafe.Pointer(&p.transB)),
		uintptr(unsafe.Pointer(&p.m)), uintptr(unsafe.Pointer(&p.n)), uintptr(unsafe.Pointer(&p.k)),
		uintptr(unsafe.Pointer(&p.alpha)),
		uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(&p.lda)),
		uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(&p.ldb)),
		uintptr(unsafe.Pointer(&p.beta)),
		uintptr(unsafe.Pointer(unsafe.SliceData(c))), uintptr(unsafe.Pointer(&p.ldc)),
	}
	// The argument list lives in p (heap memory), so passing it as an existing
	// slice does not allocate; a, b, c and p are kept alive until the call returns.
	purego.SyscallN(sgemmFn, p.args[:]...)
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
	argPool.Put(p)
}
