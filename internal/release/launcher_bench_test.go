//go:build unix

package release

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkLauncherSpawn: `dsh-acp --version` through the npm launcher
// (node, require.resolve, spawn) against the bare binary, from exec to
// exit; the medians are the spawn cost the launcher adds, and node-alone
// (node -e 0) how much of it is Node starting. It runs the
// host's binary of the release in $DSH_RELEASE_DIST:
//
//	make release-test   # once, for .release-test/
//	DSH_RELEASE_DIST=$PWD/.release-test go test -run '^$' -bench LauncherSpawn -benchtime 30x ./internal/release
func BenchmarkLauncherSpawn(b *testing.B) {
	dir := dist(b)
	host, ok := HostTarget(runtime.GOOS, runtime.GOARCH)
	if !ok {
		b.Skip("no release target for this machine")
	}
	nodePath, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node is not on the PATH")
	}
	// What npm install lays out, with the release's binary.
	modules := filepath.Join(b.TempDir(), "node_modules")
	launcher := filepath.Join(modules, NPMLauncher, "bin", "dsh-acp.js")
	writeFile(b, launcher, launcherJS, 0o755)
	pkg := filepath.Join(modules, filepath.FromSlash(host.NPMPackage()))
	writeFile(b, filepath.Join(pkg, "package.json"), []byte(`{"name":"`+host.NPMPackage()+`","version":"0.0.0"}`), 0o644)
	bin := filepath.Join(pkg, "bin", host.Executable())
	writeFile(b, bin, []byte(readString(b, NPMBinary(dir, host))), 0o755)

	for _, bc := range []struct {
		name string
		argv []string
	}{
		{"bare", []string{bin, "--version"}},
		{"launcher", []string{nodePath, launcher, "--version"}},
		{"node-alone", []string{nodePath, "-e", "0"}}, // Node's own start, the floor of any launcher
	} {
		b.Run(bc.name, func(b *testing.B) {
			if err := exec.Command(bc.argv[0], bc.argv[1:]...).Run(); err != nil { // warms the page cache
				b.Fatal(err)
			}
			var times []time.Duration
			for b.Loop() {
				start := time.Now()
				if err := exec.Command(bc.argv[0], bc.argv[1:]...).Run(); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			median := times[len(times)/2]
			b.ReportMetric(float64(median.Microseconds())/1000, "ms-median")
			b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "ms-p90")
		})
	}
}
