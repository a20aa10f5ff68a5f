//go:build darwin

package config

// hostPlatform is macOS.
func hostPlatform() platform { return macOS }
