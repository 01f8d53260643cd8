package mujoco

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// needLibrary skips the test where libmujoco cannot be loaded.
func needLibrary(t testing.TB) {
	t.Helper()
	if _, err := loadLibrary(); err != nil {
		if errors.Is(err, ErrNoLibrary) {
			t.Skipf("skipping: MuJoCo is not installed (%v)", err)
		}
		t.Fatal(err)
	}
}

// mustNew returns the task id or fails the test.
func mustNew(t testing.TB, id string) *Env {
	t.Helper()
	needLibrary(t)
	e, err := New(id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestOffsets rebuilds testdata/offsets.c against the installed headers and
// checks that it prints the constants of offsets.go.
func TestOffsets(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("skipping: no C compiler")
	}
	if _, err := os.Stat("/usr/include/mujoco/mujoco.h"); err != nil {
		t.Skip("skipping: MuJoCo headers not installed (Debian's libmujoco-dev)")
	}
	bin := filepath.Join(t.TempDir(), "offsets")
	if out, err := exec.Command(cc, "-o", bin, "testdata/offsets.c").CombinedOutput(); err != nil {
		t.Fatalf("building testdata/offsets.c: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("offsets.go")
	if err != nil {
		t.Fatal(err)
	}
	space := regexp.MustCompile(`[ \t]+`)
	norm := func(b []byte) []byte { return space.ReplaceAll(bytes.TrimSpace(b), []byte(" ")) }
	want := norm(out)
	if !bytes.Contains(norm(src), want) {
		t.Errorf("offsets.go does not match the headers; testdata/offsets.c prints\n%s", out)
	}
}
