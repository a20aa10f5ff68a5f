package main

import (
	"path/filepath"
	"strings"

	configfile "github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/sandbox"
)

// sandboxOf is the commands' sandbox as the config file widens it, with
// dsh-acp's own credentials file among what commands may not read. It
// finds what the kernel offers (sandbox.New) once, here.
func sandboxOf(cfg config) app.Sandbox {
	home := cfg.env.get("HOME")
	s := app.Sandbox{Sandbox: sandbox.New(), Locations: sandbox.Locations{Home: home, Getenv: cfg.env.get}}
	if cfg.settings != nil {
		s.Network = cfg.settings.Sandbox.Network
		s.Writable = expandHome(cfg.settings.Sandbox.Writable, home)
		s.DenyRead = expandHome(cfg.settings.Sandbox.DenyRead, home)
	}
	if path, err := configfile.CredentialsPath(cfg.env.get); err == nil {
		s.DenyRead = append(s.DenyRead, path)
	}
	return s
}

// expandHome turns each "~/…" of paths into a path under home; a "~/"
// path without a home is dropped (it names nothing).
func expandHome(paths []string, home string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home == "" {
				continue
			}
			p = filepath.Join(home, rest)
		}
		out = append(out, p)
	}
	return out
}
