package command

import (
	"fmt"
	"slices"
	"strings"
)

// Verdict is the policy's answer for one command line.
type Verdict int

// The verdicts. The zero Verdict is Ask.
const (
	// Ask asks the user before the command runs.
	Ask Verdict = iota
	// Allow runs the command without asking.
	Allow
	// Deny refuses the command.
	Deny
)

// String returns "ask", "allow" or "deny".
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	default:
		return "ask"
	}
}

// Rule is a remembered decision about commands that start with Prefix
// (see Matches): an "allow always" (Allow set) or a "reject always".
type Rule struct {
	// Allow is set for an allow rule; a reject rule has it unset.
	Allow bool
	// Prefix is the program and leading words the rule covers, as
	// Command.Prefixes gives them.
	Prefix []string
}

// Env is what Evaluate needs to know besides the command.
type Env struct {
	// Inside reports whether a path (as written: relative to the
	// command's directory unless absolute, ".." not yet resolved) lies
	// inside the workspace once its symbolic links are followed. nil
	// counts every path as outside.
	Inside func(path string) bool
	// Writes is set when the preset lets the agent write inside the
	// workspace (workspace-write); otherwise every write asks.
	Writes bool
	// Rules are the project's remembered rules.
	Rules []Rule
	// Target returns where path (as Inside takes it) leads once its
	// links are followed, absolute; ok is false when it leads nowhere.
	// With it, a write into a directory laid out like a repository asks
	// as one into .git does (see InGitDir); nil: only a .git name in the
	// path counts.
	Target func(path string) (target string, ok bool)
	// Glob returns the files a pattern (as Inside takes a path; "*" for
	// every glob) matches now. With it, each match of a glob a command
	// reads is checked with Inside too; nil: only the directory the glob
	// starts from is.
	Glob func(pattern string) ([]string, error)
	// Unrestricted is set under a preset that runs every command without
	// asking (full access): only reject rules still decide, and a line
	// that may run a program the parse cannot name asks when there are
	// any.
	Unrestricted bool
}

// Evaluate decides one bash command line:
//
//   - Deny when a reject rule matches any of its simple commands, those
//     it runs through literal strings included (sh -c 'rm x', eval rm x;
//     a reject rule beats an allow rule);
//   - Ask, under every preset, when the project has reject rules and the
//     line may run a program the parse cannot name ($X, eval "$S", a
//     shell reading its input);
//   - Allow under Unrestricted otherwise;
//   - Allow when it parses, nothing in it is opaque, every simple
//     command is read-only or matched by an allow rule (which never
//     covers an option naming a program to run, such as git push
//     --receive-pack or go test -exec), every file it writes is inside
//     the workspace, outside any .git directory or repository layout
//     (see InGitDir), under
//     a preset that writes, and every file it reads (Command.Reads) is
//     inside the workspace;
//   - Ask otherwise, with the reason naming the first thing that failed,
//     e.g. `"rm" is not read-only and no rule allows it`, `writes ../x,
//     outside the workspace`, `eval runs a string as a command, which
//     cannot be judged`.
func Evaluate(src string, env Env) (Verdict, string) {
	c, err := Parse(src)
	if err != nil {
		return Ask, fmt.Sprintf("the command cannot be parsed: %v", err)
	}
	return c.Evaluate(env)
}

// Evaluate decides a parsed command line, as the function Evaluate does.
func (c *Command) Evaluate(env Env) (Verdict, string) {
	for _, s := range slices.Concat(c.Simple, c.hidden) {
		for _, r := range env.Rules {
			if !r.Allow && Matches(s, r.Prefix) {
				return Deny, fmt.Sprintf("%s is rejected by the rule %q", display(s), strings.Join(r.Prefix, " "))
			}
		}
	}
	rejects := slices.ContainsFunc(env.Rules, func(r Rule) bool { return !r.Allow })
	if rejects && len(c.unknownRuns) > 0 {
		return Ask, c.unknownRuns[0] + ", and it could be a command a rule rejects"
	}
	if env.Unrestricted {
		return Allow, "full access"
	}
	if len(c.Opaque) > 0 {
		return Ask, c.Opaque[0]
	}
	var allowedBy *Rule
	for _, s := range c.Simple {
		ok, reason := ReadOnly(s)
		if ok {
			continue
		}
		r, uncovered := allowRule(s, env.Rules)
		if r == nil {
			if uncovered != "" {
				return Ask, uncovered
			}
			return Ask, reason + " and no rule allows it"
		}
		if allowedBy == nil {
			allowedBy = r
		}
	}
	for _, w := range c.Writes {
		switch {
		case w.Unknown != "":
			return Ask, w.Unknown
		case env.inGitDir(w.Path):
			return Ask, fmt.Sprintf("writes %s, inside git's own directory (or a directory laid out like one)", w.Path)
		case !env.Writes:
			return Ask, fmt.Sprintf("writes %s, and this mode asks before every write", w.Path)
		case env.Inside == nil || !env.Inside(w.Path):
			return Ask, fmt.Sprintf("writes %s, outside the workspace", w.Path)
		}
	}
	for _, r := range c.Reads {
		switch {
		case r.Unknown != "":
			return Ask, r.Unknown
		case env.Inside == nil || !env.Inside(r.Path):
			shown := r.Path
			if r.Word != "" {
				shown = r.Word
			}
			return Ask, fmt.Sprintf("%s reads %s, outside the workspace", r.By, shown)
		}
		if reason := env.globOutside(r); reason != "" {
			return Ask, reason
		}
	}
	if allowedBy != nil {
		return Allow, fmt.Sprintf("allowed by the rule %q", strings.Join(allowedBy.Prefix, " "))
	}
	return Allow, "read-only"
}

// maxGlobMatches bounds the matches of one glob checked one by one.
const maxGlobMatches = 1024

// globOutside returns why a glob read r matches a file outside the
// workspace (a link among its matches), or "".
func (env Env) globOutside(r Read) string {
	if r.Pattern == "" || env.Glob == nil {
		return ""
	}
	matches, err := env.Glob(r.Pattern)
	switch {
	case err != nil:
		return fmt.Sprintf("%s reads %s, whose matches cannot be listed: %v", r.By, r.Word, err)
	case len(matches) > maxGlobMatches:
		return fmt.Sprintf("%s reads %s, which matches more files than are checked (%d)", r.By, r.Word, maxGlobMatches)
	}
	for _, m := range matches {
		if !env.Inside(m) {
			return fmt.Sprintf("%s reads %s, which matches %s, outside the workspace", r.By, r.Word, m)
		}
	}
	return ""
}

// allowRule returns the first allow rule covering s, or nil. A rule
// whose prefix matches never covers a command carrying an option that
// names a program to run (see programOption); uncovered then says so.
func allowRule(s Simple, rules []Rule) (rule *Rule, uncovered string) {
	for i := range rules {
		if !rules[i].Allow || !Matches(s, rules[i].Prefix) {
			continue
		}
		if opt := programOption(s); opt != "" {
			return nil, fmt.Sprintf("%s with %s can make it run another program, which the rule %q does not cover",
				display(s), opt, strings.Join(rules[i].Prefix, " "))
		}
		return &rules[i], ""
	}
	return nil, ""
}

// inGitDir reports whether writing path (as Inside takes it) changes
// git's own files: a .git name in it as written, or, where Target
// places it, one of the paths InGitDir names.
func (env Env) inGitDir(path string) bool {
	if hasGitName(path) {
		return true
	}
	if env.Target == nil {
		return false
	}
	target, ok := env.Target(path)
	return ok && InGitDir(target)
}
