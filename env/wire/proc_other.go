//go:build !linux

package wire

import "os/exec"

// setProcAttr does nothing outside Linux: a worker notices that its parent
// has gone when its request pipe reaches end of file.
func setProcAttr(cmd *exec.Cmd) {}

// killGroup kills the worker.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
