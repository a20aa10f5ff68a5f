//go:build !unix

package mcp

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// killGroup kills the command's own process; processes it started are
// left to end with their stdio.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
