package sandbox

import (
	"os"
	"path/filepath"
	"slices"
)

// Locations names the places of one user's machine that a default
// policy allows or denies. Home is the user's home directory; Getenv
// reads the environment the commands run with (os.Getenv when nil).
// Nothing is run and nothing needs to exist: a place that is missing is
// skipped when the command starts.
type Locations struct {
	Home   string
	Getenv func(string) string
}

// Credentials are the places that hold the user's keys, tokens and
// browser profiles, which no sandboxed command may read: SSH, cloud,
// GnuPG, GitHub CLI, netrc and git credentials, Docker and Kubernetes,
// npm and PyPI tokens, password-store, and the profiles of Firefox,
// Chrome and Chromium.
func (l Locations) Credentials() []string {
	rel := []string{
		".ssh", ".aws", ".gnupg", ".config/gh", ".netrc", ".git-credentials",
		".config/git/credentials", ".docker/config.json", ".kube", ".config/gcloud",
		".azure", ".npmrc", ".pypirc", ".password-store", ".config/hub",
		".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
		".local/share/keyrings", ".config/op", ".terraform.d/credentials.tfrc.json",
		"Library/Keychains", "Library/Application Support/Google/Chrome",
		"Library/Application Support/Firefox",
	}
	return l.underHome(rel)
}

// DaemonSockets are the Unix sockets of the daemons that run containers
// (Docker, Podman, containerd, BuildKit): whoever may connect to one can
// start a privileged container, which is root on the machine. The
// rootless daemons' sockets under $XDG_RUNTIME_DIR and Docker Desktop's
// under the home directory are among them.
func (l Locations) DaemonSockets() []string {
	out := []string{
		"/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock",
		"/run/containerd/containerd.sock", "/run/buildkit/buildkitd.sock",
	}
	if runtime := l.getenv()("XDG_RUNTIME_DIR"); filepath.IsAbs(runtime) {
		out = append(out, filepath.Join(runtime, "docker.sock"), filepath.Join(runtime, "podman", "podman.sock"),
			filepath.Join(runtime, "containerd", "containerd.sock"), filepath.Join(runtime, "buildkit", "buildkitd.sock"))
	}
	out = append(out, l.underHome([]string{".docker/run/docker.sock", ".docker/desktop/docker.sock"})...)
	return unique(out)
}

// AgentSockets are the sockets of the agents that hold the user's keys
// and sign with them: ssh-agent ($SSH_AUTH_SOCK) and gpg-agent's under
// $XDG_RUNTIME_DIR (the one under ~/.gnupg is a credential location). The
// keys never leave an agent, but whoever may connect can sign with them.
func (l Locations) AgentSockets() []string {
	getenv := l.getenv()
	out := []string{getenv("SSH_AUTH_SOCK")}
	if runtime := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(runtime) {
		out = append(out, filepath.Join(runtime, "gnupg"))
	}
	return unique(out)
}

// Caches are the toolchains' download and build caches that commands
// may write: Go's build and module caches ($GOCACHE, $GOMODCACHE, or
// their defaults under $GOPATH and the user cache directory), ~/.cache
// (pip, yarn, and most XDG programs), npm's, pnpm's and yarn's stores,
// Cargo's registry and git checkouts, Maven's repository and Gradle's
// caches.
func (l Locations) Caches() []string {
	getenv := l.getenv()
	userCache := getenv("XDG_CACHE_HOME")
	if userCache == "" {
		userCache = filepath.Join(l.Home, ".cache")
	}
	goPath := firstList(getenv("GOPATH"))
	if goPath == "" {
		goPath = filepath.Join(l.Home, "go")
	}
	out := []string{
		orDefault(getenv("GOCACHE"), filepath.Join(userCache, "go-build")),
		orDefault(getenv("GOMODCACHE"), filepath.Join(goPath, "pkg", "mod")),
		userCache,
	}
	out = append(out, l.underHome([]string{
		".npm", ".local/share/pnpm", ".yarn/berry/cache", ".cargo/registry", ".cargo/git",
		".m2/repository", ".gradle/caches",
	})...)
	return unique(out)
}

// TempDirs are the system's temporary directories: os.TempDir and /tmp.
func TempDirs() []string {
	return unique([]string{os.TempDir(), "/tmp", "/var/tmp"})
}

// Devices are the device files every program may write: the null, zero
// and random devices, the standard streams and POSIX shared memory.
func Devices() []string {
	return []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/shm"}
}

// underHome joins each relative path to the home directory; with no home
// there is nothing to name.
func (l Locations) underHome(rel []string) []string {
	if l.Home == "" || !filepath.IsAbs(l.Home) {
		return nil
	}
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = filepath.Join(l.Home, r)
	}
	return out
}

func (l Locations) getenv() func(string) string {
	if l.Getenv != nil {
		return l.Getenv
	}
	return os.Getenv
}

// firstList is the first entry of a path list ($GOPATH may hold several;
// the module cache is in the first).
func firstList(list string) string {
	parts := filepath.SplitList(list)
	if len(parts) == 0 {
		return ""
	}
	return parts[0]
}

func orDefault(value, fallback string) string {
	if value != "" && filepath.IsAbs(value) {
		return value
	}
	return fallback
}

// unique drops repeats and relative paths, keeping the order.
func unique(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
