//go:build linux && (amd64 || arm64) && !gorl_noopenblas

package blas

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestHasSmallKernels(t *testing.T) {
	for _, tc := range []struct {
		release, core string
		want          bool
	}{
		{"0.3.21", "SkylakeX", true},
		{"0.3.26", "SapphireRapids", true},
		{"0.4.0", "cooperlake", true},
		{"0.3.20", "SkylakeX", false}, // older than the release measured
		{"0.2.20", "SkylakeX", false},
		{"0.3.21", "Haswell", false}, // no small kernels for this core
		{"0.3.21.dev", "SkylakeX", true},
		{"dev", "SkylakeX", false},
	} {
		if got := hasSmallKernels(tc.release, tc.core); got != tc.want {
			t.Errorf("hasSmallKernels(%q, %q) = %v, want %v", tc.release, tc.core, got, tc.want)
		}
	}
}

// childEnv marks the child process of TestLoadLeavesEnvironment.
const childEnv = "GORL_BLAS_TEST_CHILD"

// TestLoadLeavesEnvironment loads OpenBLAS in child processes (the library
// reads its variables once per process, when it is loaded) and checks that
// the environment after loading equals the environment before, and that
// the thread count is one unless the user set OPENBLAS_NUM_THREADS.
func TestLoadLeavesEnvironment(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		before := os.Environ()
		_, name, err := loadOpenBLAS()
		after := os.Environ()
		if err != nil {
			fmt.Printf("NOLIB %v\n", err)
			return
		}
		slices.Sort(before)
		slices.Sort(after)
		fmt.Printf("NAME %s\nSAME %v\n", name, slices.Equal(before, after))
		return
	}
	if testing.Short() {
		t.Skip("starts child processes")
	}
	// base is the environment without the variables the cases set.
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENBLAS_") && !strings.HasPrefix(kv, "GOTO") && !strings.HasPrefix(kv, "OMP_") {
			base = append(base, kv)
		}
	}
	tests := []struct {
		name string
		env  []string // set in the child besides base
		want string   // in the library's description
	}{
		{"unset", nil, ", 1 thread)"},
		{"set empty", []string{"OPENBLAS_NUM_THREADS=", "OPENBLAS_CORETYPE="}, ", 1 thread)"},
		{"user's thread count", []string{"OPENBLAS_NUM_THREADS=2"}, ", 2 threads)"},
		{"user's core type", []string{"OPENBLAS_CORETYPE=Haswell"}, "(Haswell, 1 thread)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestLoadLeavesEnvironment$", "-test.count=1")
			cmd.Env = append(append(slices.Clip(base), childEnv+"=1"), tt.env...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			s := string(out)
			if strings.Contains(s, "NOLIB ") {
				t.Skipf("OpenBLAS not loadable: %s", s)
			}
			if !strings.Contains(s, "SAME true") {
				t.Errorf("environment changed by loading OpenBLAS:\n%s", s)
			}
			if runtime.GOARCH != "amd64" && strings.Contains(tt.want, "Haswell") {
				return
			}
			if !strings.Contains(s, tt.want) {
				t.Errorf("description does not contain %q:\n%s", tt.want, s)
			}
			// Where the user left the core type unset, the one chosen for
			// the CPU applied during the load.
			if core := coreType(); tt.env == nil && core != "" && !strings.Contains(s, "("+core+",") {
				t.Errorf("description does not name the core %s chosen for this CPU:\n%s", core, s)
			}
		})
	}
}
