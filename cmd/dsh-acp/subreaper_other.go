//go:build !linux

package main

// becomeSubreaper does nothing where there is no child subreaper: orphaned
// descendants go to init, and only process groups are stopped.
func becomeSubreaper() error { return nil }
