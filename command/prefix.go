package command

import (
	"slices"
	"strings"
)

// Prefixes returns the rules that an "always allow" of this command
// saves: for each simple command that is not read-only, in order and
// without repeats, its program and the leading literal sub-command words
// (`go test ./...` → [go test], `npm run build` → [npm run build], `git
// status -s` → [git status], `./scripts/ci.sh x` → [./scripts/ci.sh],
// `python -m pytest -x` → [python -m pytest]). When an option comes
// before the sub-command the rule is the whole command (`git -C sub
// push` → [git -C sub push]). It is nil when the command is opaque or
// one of those commands has no literal program or sub-command, and empty
// when every command is read-only (nothing to remember).
func (c *Command) Prefixes() [][]string {
	if len(c.Opaque) > 0 {
		return nil
	}
	return c.prefixesOf(func(s Simple) bool { ok, _ := ReadOnly(s); return !ok })
}

// prefixesOf returns the prefix of every simple command that want keeps,
// in order and without repeats (an empty, non-nil slice when it keeps
// none); nil when one of them has no literal program.
func (c *Command) prefixesOf(want func(Simple) bool) [][]string {
	out := [][]string{}
	for _, s := range c.Simple {
		if !want(s) {
			continue
		}
		p := prefixOf(s)
		if p == nil {
			return nil
		}
		if !slices.ContainsFunc(out, func(q []string) bool { return slices.Equal(p, q) }) {
			out = append(out, p)
		}
	}
	return out
}

// Prefix returns the one rule the permission prompt names: the prefix of
// the first simple command that is not read-only, or, when all are, of
// the first that is not a cd. It is nil when the command is opaque or
// that command has no literal program.
func (c *Command) Prefix() []string {
	if len(c.Opaque) > 0 {
		return nil
	}
	for _, s := range c.Simple {
		if ok, _ := ReadOnly(s); !ok {
			return prefixOf(s)
		}
	}
	for _, s := range c.Simple {
		switch s.Program() {
		case "cd", "pushd", "popd":
			continue
		}
		return prefixOf(s)
	}
	return nil
}

// Matches reports whether s starts with prefix, word by word, on literal
// words only. The first word also matches by Program, so a rule for git
// matches /usr/bin/git (but never ./git), and as the platform finds
// programs (sameProgram): `GIT push` and `git.exe push` on Windows.
func Matches(s Simple, prefix []string) bool {
	if len(prefix) == 0 || len(s.Words) < len(prefix) {
		return false
	}
	for i, w := range prefix {
		if !s.literal(i) {
			return false
		}
		if s.Words[i] == w || i == 0 && sameProgram(s.Words[i], w) {
			continue
		}
		if i > 0 || strings.Contains(w, "/") || !sameProgram(s.Program(), w) {
			return false
		}
	}
	return true
}

// prefixOf returns the rule prefix of one simple command, or nil when it
// has none.
func prefixOf(s Simple) []string {
	if len(s.Words) == 0 || !s.literal(0) {
		return nil
	}
	if p := s.Program(); (p == "python" || p == "python3") && len(s.Words) > 2 && s.literal(1) && s.Words[1] == "-m" {
		if !s.literal(2) {
			return nil
		}
		return slices.Clone(s.Words[:3])
	}
	if interpreter(s.Program()) && (len(s.Words) < 2 || (s.literal(1) && s.Words[1] == "-")) {
		return nil // the program comes from its input: no rule can name it
	}
	depth := subcommandDepth(s)
	out := []string{s.Words[0]}
	for i := 1; i <= depth && i < len(s.Words); i++ {
		if !s.literal(i) {
			return nil
		}
		if !subcommandWord(s.Words[i]) {
			return wholeCommand(s)
		}
		out = append(out, s.Words[i])
	}
	return out
}

// wholeCommand returns every word of s when all are literal.
func wholeCommand(s Simple) []string {
	for i := range s.Words {
		if !s.literal(i) {
			return nil
		}
	}
	return slices.Clone(s.Words)
}

// subcommandWord reports whether w can be a sub-command, target or
// script name rather than an option.
func subcommandWord(w string) bool {
	if w == "" || w[0] == '-' || w[0] == '+' {
		return false
	}
	for _, r := range w {
		if !(r == '.' || r == '_' || r == ':' || r == '@' || r == '/' || r == '-' || r == '+' || r == '=' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')) {
			return false
		}
	}
	return true
}

// subcommandDepth returns how many words after the program a rule for s
// keeps: the sub-command (and the sub-sub-command or script of the tools
// that have them), or nothing for a program without sub-commands.
func subcommandDepth(s Simple) int {
	name := s.Program()
	second := ""
	if len(s.Words) > 1 {
		second = s.Words[1]
	}
	switch name {
	case "git":
		return oneOrTwo(second, "stash", "remote", "worktree", "submodule", "notes", "bisect", "reflog", "lfs",
			"sparse-checkout", "maintenance")
	case "go":
		return oneOrTwo(second, "mod", "work", "tool")
	case "npm", "pnpm", "yarn", "bun":
		return oneOrTwo(second, "run", "run-script", "exec", "x", "dlx", "create")
	case "docker", "podman":
		return oneOrTwo(second, "compose", "container", "image", "network", "volume", "buildx", "system", "builder")
	case "uv", "poetry", "pipenv", "pdm", "hatch", "turbo", "bundle", "deno":
		return oneOrTwo(second, "run", "exec", "pip", "tool")
	case "python", "python3":
		return 1
	case "gh", "aws", "gcloud", "az":
		return 2
	case "npx", "bunx", "pnpx", "cargo", "rustup", "make", "just", "task", "dotnet", "mvn", "gradle",
		"swift", "zig", "kubectl", "helm", "terraform", "tofu", "brew", "apt", "apt-get", "pip", "pip3",
		"rake", "rails", "mix", "composer", "systemctl", "conda", "nx", "lerna", "flutter", "dart",
		"bazel", "node", "ruby", "perl", "php", "bash", "sh", "zsh", "tsx", "ts-node":
		return 1
	}
	return 0
}

// interpreter reports whether name runs a program given as a script,
// a string or its input.
func interpreter(name string) bool {
	switch name {
	case "python", "python3", "node", "ruby", "perl", "php", "bash", "sh", "zsh", "tsx", "ts-node", "deno", "bun", "lua":
		return true
	}
	return false
}

// oneOrTwo returns 2 when second is one of the sub-commands that have
// sub-commands of their own, 1 otherwise.
func oneOrTwo(second string, nested ...string) int {
	if slices.Contains(nested, second) {
		return 2
	}
	return 1
}
