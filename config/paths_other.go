//go:build !windows && !darwin

package config

// hostPlatform is Linux or another Unix system.
func hostPlatform() platform { return unixLike }
