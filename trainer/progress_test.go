package trainer_test

import (
	"context"
	"path/filepath"
	"testing"
)

// TestProgress checks Progress on a fresh trainer (nothing done) and after
// Restore (the counts of the run that wrote the checkpoint, from its
// Result).
func TestProgress(t *testing.T) {
	ctx := context.Background()
	ckpt := filepath.Join(t.TempDir(), "ckpt")
	tr, _ := dqnRun(t, 2, ckpt, nil)
	if e, s, g := tr.Progress(); e != 0 || s != 0 || g != 0 {
		t.Errorf("fresh trainer: Progress() = %d, %d, %d; want 0, 0, 0", e, s, g)
	}
	res, err := tr.Run(ctx)
	tr.Close()
	if err != nil {
		t.Fatal(err)
	}
	back, _ := dqnRun(t, 3, "", nil)
	defer back.Close()
	if err := back.Restore(ctx, ckpt); err != nil {
		t.Fatal(err)
	}
	if e, s, g := back.Progress(); e != res.Epochs || s != res.EnvSteps || g != res.GradientSteps {
		t.Errorf("after Restore: Progress() = %d, %d, %d; want the run's %d, %d, %d", e, s, g, res.Epochs, res.EnvSteps, res.GradientSteps)
	}
}
