package command

import (
	"fmt"
	"strings"
)

// gitReadOnly allows the git sub-commands that only read the repository:
//
//   - status, rev-parse, ls-files, ls-tree, cat-file, rev-list,
//     merge-base, name-rev, show-ref, for-each-ref, describe,
//     count-objects, check-ignore, check-attr, var, version, blame,
//     annotate: any arguments
//   - log, show, diff, whatchanged, diff-tree, diff-index, diff-files,
//     range-diff, shortlog: without --output (writes a file) and
//     --ext-diff (runs the configured diff program)
//   - grep: without -O/--open-files-in-pager (runs a program)
//   - branch and tag: listing only (-l/--list for patterns, and the
//     filtering and formatting options)
//   - remote: listing (-v) and get-url; config: get and list only;
//     stash list/show; worktree list; reflog (not expire/delete); notes
//     list/show
//
// Before the sub-command only --no-pager, -P, --no-optional-locks,
// --no-replace-objects, --no-advice and the pathspec options may come:
// -c, --config-env, --exec-path, -C, --git-dir, --work-tree and
// --paginate can make git run another program or read another
// repository's configuration.
func gitReadOnly(s Simple) (bool, string) {
	return knownArguments(gitSub)(s)
}

func gitSub(s Simple) (bool, string) {
	i := 1
	for ; i < len(s.Words) && strings.HasPrefix(s.Words[i], "-"); i++ {
		switch w := s.Words[i]; w {
		case "--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--glob-pathspecs",
			"--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects", "--no-advice":
		case "--version":
			return true, ""
		default:
			name, _, _ := strings.Cut(w, "=")
			switch name {
			case "-c", "--config-env", "--exec-path":
				return false, fmt.Sprintf("git %s can make git run any program", name)
			}
			return false, fmt.Sprintf("git %s is not read-only", name)
		}
	}
	if i >= len(s.Words) {
		return false, "git with no sub-command is not read-only"
	}
	sub := s.Words[i]
	rest := s.Words[i+1:]
	next := ""
	if len(rest) > 0 {
		next = rest[0]
	}
	switch sub {
	case "status", "rev-parse", "ls-files", "ls-tree", "cat-file", "rev-list", "merge-base", "name-rev",
		"show-ref", "for-each-ref", "describe", "count-objects", "check-ignore", "check-attr", "var",
		"version", "blame", "annotate":
		return true, ""
	case "log", "show", "diff", "whatchanged", "diff-tree", "diff-index", "diff-files", "range-diff", "shortlog":
		return gitNoOutput(s, sub)
	case "grep":
		for _, w := range rest {
			if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "O") {
				return false, "git grep -O runs a program on the files found"
			}
		}
		if w, ok := anyWordIs(s, "--open-files-in-pager"); ok {
			return false, fmt.Sprintf("git grep %s runs a program on the files found", w)
		}
		return true, ""
	case "branch":
		return gitListing(rest, "branch", "arlviq", []string{"all", "remotes", "list", "verbose", "quiet", "show-current",
			"color", "no-color", "column", "no-column", "ignore-case", "abbrev", "no-abbrev", "omit-empty"})
	case "tag":
		return gitListing(rest, "tag", "li", []string{"list", "ignore-case", "column", "no-column", "color", "omit-empty"})
	case "remote":
		if next == "get-url" {
			return true, ""
		}
		for _, w := range rest {
			if w != "-v" && w != "--verbose" {
				return false, fmt.Sprintf("git remote %s is not read-only", w)
			}
		}
		return true, ""
	case "config":
		return gitConfig(rest)
	case "stash":
		if next == "list" || next == "show" {
			return gitNoOutput(s, "stash "+next)
		}
	case "worktree":
		if next == "list" {
			return true, ""
		}
	case "reflog":
		switch next {
		case "expire", "delete", "drop":
		default:
			return gitNoOutput(s, "reflog")
		}
	case "notes":
		if next == "list" || next == "show" {
			return true, ""
		}
	}
	words := "git " + sub
	if next != "" && !strings.HasPrefix(next, "-") {
		words += " " + next
	}
	return false, fmt.Sprintf("%q is not read-only", words)
}

// gitNoOutput refuses the options of git's diff machinery that write a
// file or run a program.
func gitNoOutput(s Simple, sub string) (bool, string) {
	if w, ok := anyWordIs(s, "--output", "--ext-diff"); ok {
		return false, fmt.Sprintf("git %s %s is not read-only", sub, w)
	}
	return true, ""
}

// gitListing allows git branch or tag when they only list: the short
// options in short, the long flags in long, the filters that take a
// commit or pattern, and operands only with -l/--list. tag's -n<num> is
// allowed too.
func gitListing(rest []string, sub, short string, long []string) (bool, string) {
	listing := false
	operand := ""
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		name, _, hasValue := strings.Cut(w, "=")
		switch {
		case !strings.HasPrefix(w, "-"):
			operand = w
		case w == "--":
			if i+1 < len(rest) {
				operand = rest[i+1]
			}
			i = len(rest)
		case containsString([]string{"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format"}, name):
			if !hasValue && i+1 < len(rest) && !strings.HasPrefix(rest[i+1], "-") {
				i++
			}
		case strings.HasPrefix(w, "--"):
			if !containsString(long, strings.TrimPrefix(name, "--")) {
				return false, fmt.Sprintf("git %s %s is not read-only", sub, w)
			}
			listing = listing || name == "--list"
		case sub == "tag" && strings.HasPrefix(w, "-n") && (len(w) == 2 || isNumber(w[2:])):
		default:
			if strings.Trim(w[1:], short) != "" {
				return false, fmt.Sprintf("git %s %s is not read-only", sub, w)
			}
			listing = listing || strings.Contains(w, "l")
		}
	}
	if operand != "" && !listing {
		return false, fmt.Sprintf("git %s %s creates or changes a %s", sub, operand, sub)
	}
	return true, ""
}

// gitConfig allows git config when it only reads settings.
func gitConfig(rest []string) (bool, string) {
	if len(rest) > 0 {
		switch rest[0] {
		case "get", "list":
			return true, ""
		case "set", "unset", "rename-section", "remove-section", "edit":
			return false, fmt.Sprintf("git config %s changes settings", rest[0])
		}
	}
	reading, operands := false, 0
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		name, _, hasValue := strings.Cut(w, "=")
		switch {
		case !strings.HasPrefix(w, "-"):
			operands++
		case containsString([]string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l",
			"--get-color", "--get-colorbool"}, name):
			reading = true
		case containsString([]string{"--file", "-f", "--blob", "--type", "--default"}, name):
			if !hasValue {
				i++
			}
		case containsString([]string{"--show-origin", "--show-scope", "--name-only", "--null", "-z", "--global",
			"--system", "--local", "--worktree", "--includes", "--no-includes", "--bool", "--int", "--bool-or-int",
			"--path", "--expiry-date", "--no-type"}, name):
		default:
			return false, fmt.Sprintf("git config %s changes settings", w)
		}
	}
	if !reading && operands > 1 {
		return false, "git config with a value changes settings"
	}
	return true, ""
}

// goNetwork returns why a go list or go doc line reaches the network or
// builds: go doc -http downloads and runs pkgsite; go list -m with a
// module query (x@latest, all, -u, -versions, -retracted) asks a module
// proxy the line may name; -export and -compiled build.
func goNetwork(sub string, opts []option) string {
	modules := false
	for _, o := range opts {
		switch {
		case sub == "doc" && o.name == "-http":
			return "go doc -http downloads and runs a documentation server"
		case sub == "list" && (o.name == "-export" || o.name == "-compiled"):
			return fmt.Sprintf("go list %s builds the packages", o.name)
		case sub == "list" && (o.name == "-u" || o.name == "-versions" || o.name == "-retracted"):
			return fmt.Sprintf("go list %s asks a module proxy over the network", o.name)
		case sub == "list" && o.name == "-m":
			modules = o.value != "false"
		}
	}
	if modules && len(operands(opts)) > 0 {
		return "go list -m with a module query asks a module proxy over the network"
	}
	return ""
}

// goReadOnly allows the go sub-commands that only read: version, env
// (without -w and -u), list, vet, doc and help, without the flags that
// run another program (-toolexec, -exec, -vettool), work elsewhere (-C),
// rewrite go.mod (-mod=mod), write debug files (-debug-*) or reach the
// network (see goNetwork).
func goReadOnly(s Simple) (bool, string) {
	return knownArguments(func(s Simple) (bool, string) {
		if len(s.Words) < 2 {
			return false, `"go" is not read-only`
		}
		sub := s.Words[1]
		switch sub {
		case "version", "env", "list", "vet", "doc", "help":
		default:
			return false, fmt.Sprintf("%q is not read-only", "go "+sub)
		}
		opts, ok := goFlags(s, 2, goValuedFlags())
		if !ok {
			return false, fmt.Sprintf("go %s with an argument known only when it runs is not read-only", sub)
		}
		if reason := goNetwork(sub, opts); reason != "" {
			return false, reason
		}
		for _, o := range opts {
			switch {
			case o.name == "":
			case sub == "env" && (o.name == "-w" || o.name == "-u"):
				return false, fmt.Sprintf("go env %s changes go's settings", o.name)
			case o.name == "-toolexec" || o.name == "-exec" || o.name == "-vettool" || o.name == "-C" ||
				strings.HasPrefix(o.name, "-debug-") || (o.name == "-mod" && o.value == "mod"):
				return false, fmt.Sprintf("go %s %s is not read-only", sub, o.name)
			}
		}
		return true, ""
	})(s)
}
