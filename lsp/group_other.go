//go:build !unix

package lsp

import "os/exec"

// ownGroup leaves cmd as it is: process groups are a Unix notion.
func ownGroup(*exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
