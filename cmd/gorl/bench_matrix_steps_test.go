package main

import "testing"

// TestMatrixSteps checks that a preset's matrix_steps cuts its pair's
// matrix runs below the bar's steps, and that a pair without one keeps
// the bar's.
func TestMatrixSteps(t *testing.T) {
	tests := []struct {
		algo, env string
		steps     int // the run's budget
		epochs    int // of the preset's 10,000 steps (or the defaults')
	}{
		// rppo-MountainCarContinuous-v0.json: matrix_steps 100,000 below
		// Gymnasium's 1M.
		{"rppo", "MountainCarContinuous-v0", 100_000, 10},
		// rppo-Acrobot-v1.json has no matrix_steps: Gymnasium's 1M.
		{"rppo", "Acrobot-v1", 1_000_000, 100},
	}
	for _, tt := range tests {
		pairs, _, err := matrixPairs(tt.algo, tt.env)
		if err != nil {
			t.Fatal(err)
		}
		if len(pairs) != 1 {
			t.Fatalf("%s on %s: %d pairs, want 1", tt.algo, tt.env, len(pairs))
		}
		bar := pairs[0].Bar
		if bar.Steps != tt.steps {
			t.Errorf("%s on %s: budget %d steps, want %d", tt.algo, tt.env, bar.Steps, tt.steps)
		}
		rc, _, err := matrixRunConfig(matrixJob{Algo: tt.algo, Env: tt.env, Bar: bar})
		if err != nil {
			t.Fatal(err)
		}
		if got := rc.Trainer.Epochs; got != tt.epochs {
			t.Errorf("%s on %s: %d epochs, want %d", tt.algo, tt.env, got, tt.epochs)
		}
	}
}
