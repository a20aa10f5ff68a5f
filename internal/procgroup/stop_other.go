//go:build !unix

package procgroup

import "time"

// Stop does nothing where there are no process groups.
func Stop(int, time.Duration) {}

// Alive reports false where there are no process groups.
func Alive(int) bool { return false }
