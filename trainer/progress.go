package trainer

// Progress returns how far the run has come: the epochs completed and the
// training env steps and gradient steps taken so far. After Restore these
// are the checkpoint's, before Run those of a fresh run are 0.
func (t *Trainer) Progress() (epochs int, envSteps, gradientSteps int64) {
	return t.st.Epoch, t.st.EnvSteps, t.st.GradSteps
}
