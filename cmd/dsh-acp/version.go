package main

import "runtime/debug"

// baseVersion is the release this build belongs to.
const baseVersion = "0.1.0-dev"

// version is the release, plus the commit when the build recorded one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return baseVersion
	}
	if info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return baseVersion + "+" + s.Value[:12]
		}
	}
	return baseVersion
}
