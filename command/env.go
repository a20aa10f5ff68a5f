package command

import "strings"

// envEffect is what setting an environment variable can do.
type envEffect int

const (
	// envHarmless variables only change formatting or locale: they may
	// prefix a read-only command.
	envHarmless envEffect = iota
	// envPlain variables may change what a program does: the command is
	// no longer read-only, but a rule may still allow it.
	envPlain
	// envHijack variables change which program runs or make a program run
	// another one (PATH, LD_PRELOAD, GIT_*, PAGER, NODE_OPTIONS …): the
	// command cannot be judged.
	envHijack
)

// classifyEnv returns what setting name to value does; literal tells
// whether value is known before the command runs.
func classifyEnv(name, value string, literal bool) envEffect {
	switch name {
	case "LANG", "LANGUAGE", "TZ", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
		"COLUMNS", "LINES", "TERM", "COLORTERM", "IFS", "GREP_COLOR", "GREP_COLORS", "LS_COLORS",
		"POSIXLY_CORRECT", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "CGO_ENABLED":
		return envHarmless
	case "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER":
		// "cat" and "" print without a pager; anything else runs a program.
		if literal && (value == "cat" || value == "") {
			return envHarmless
		}
		return envHijack
	case "GIT_TERMINAL_PROMPT":
		if literal && (value == "0" || value == "1") {
			return envHarmless
		}
		return envHijack
	case "GIT_OPTIONAL_LOCKS":
		// Commands run with 0: with 1, git status rewrites the index on
		// the side, which runs a post-index-change hook.
		if literal && value == "0" {
			return envHarmless
		}
		return envHijack
	case "ENV", "BASH_ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "HOME",
		"XDG_CONFIG_HOME", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE", "SHELL", "CC", "CXX", "CPP",
		"LD", "AR", "PYTHONSTARTUP", "PYTHONHOME", "PERL5LIB", "PERLLIB", "PERL5OPT", "RUBYLIB",
		"RUBYOPT", "RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "MAKEFILES", "EXINIT",
		"VIMINIT", "INPUTRC", "ZDOTDIR", "TERMINFO", "LOCPATH", "NLSPATH", "HOSTALIASES",
		"SSH_ASKPASS", "SUDO_ASKPASS", "KUBECONFIG", "BROWSER", "GOTOOLCHAIN", "GOROOT", "GOENV",
		"GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GOPRIVATE", "GONOPROXY", "GOINSECURE",
		"GOVCS", "GOBIN", "HISTFILE", "WGETRC", "CURL_HOME", "GNUPGHOME", "GLOBIGNORE":
		return envHijack
	}
	for _, prefix := range []string{"LC_"} {
		if strings.HasPrefix(name, prefix) {
			return envHarmless
		}
	}
	for _, prefix := range []string{"LD_", "DYLD_", "GIT_", "BASH_", "NPM_CONFIG_", "npm_config_", "YARN_", "CARGO_", "CGO_", "DOTNET_"} {
		if strings.HasPrefix(name, prefix) {
			return envHijack
		}
	}
	// Search paths (PATH, PYTHONPATH, LD_LIBRARY_PATH, RIPGREP_CONFIG_PATH
	// …), option variables (NODE_OPTIONS, JAVA_TOOL_OPTIONS …) and flag
	// variables (GOFLAGS, MAKEFLAGS, CFLAGS …) choose what runs.
	for _, suffix := range []string{"PATH", "_OPTIONS", "FLAGS"} {
		if strings.HasSuffix(name, suffix) {
			return envHijack
		}
	}
	return envPlain
}

// checkAssign records an assignment of name that hijacks what runs.
func (p *parser) checkAssign(name, value string, literal bool) {
	if classifyEnv(name, value, literal) == envHijack {
		p.opaque("%s= changes which programs run or what they run", name)
	}
}

// checkName records a variable the line sets to a value the parse does
// not see (a loop variable, read's names) when it hijacks what runs.
func (p *parser) checkName(name string) {
	p.checkAssign(name, "", false)
}
