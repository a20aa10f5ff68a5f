//go:build windows

package config

// hostPlatform is Windows.
func hostPlatform() platform { return windows }
