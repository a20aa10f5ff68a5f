package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestIdentityOf(t *testing.T) {
	const rev = "876f68a1b2c3d4e5f60718293a4b5c6d7e8f9012"
	vcs := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	tests := []struct {
		name            string
		version, commit string
		info            *debug.BuildInfo
		want            buildIdentity
		wantLine, wantV string
	}{
		{
			name:    "release build: the injected version and commit win",
			version: "0.2.0", commit: rev, info: vcs("true"),
			want:     buildIdentity{Version: "0.2.0", Commit: rev[:12], Go: "go1.26.8"},
			wantLine: "dsh-acp 0.2.0 (commit 876f68a1b2c3, go1.26.8 ", wantV: "0.2.0",
		},
		{
			name:     "go install module@v0.3.1 records the module version",
			info:     &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.1"}},
			want:     buildIdentity{Version: "v0.3.1", Go: "go1.26.8"},
			wantLine: "dsh-acp v0.3.1 (commit unknown, go1.26.8 ", wantV: "v0.3.1",
		},
		{
			name:     "a build in a dirty checkout says so",
			info:     vcs("true"),
			want:     buildIdentity{Version: baseVersion, Commit: rev[:12], Modified: true, Go: "go1.26.8"},
			wantLine: "dsh-acp " + baseVersion + " (commit 876f68a1b2c3-modified, go1.26.8 ", wantV: baseVersion + "+876f68a1b2c3",
		},
		{
			name:     "no build info at all",
			want:     buildIdentity{Version: baseVersion, Go: runtime.Version()},
			wantLine: "dsh-acp " + baseVersion + " (commit unknown, " + runtime.Version() + " ", wantV: baseVersion,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := identityOf(tt.version, tt.commit, tt.info)
			if got != tt.want {
				t.Fatalf("identity = %+v, want %+v", got, tt.want)
			}
			line := got.String()
			if !strings.HasPrefix(line, tt.wantLine) || !strings.HasSuffix(line, runtime.GOOS+"/"+runtime.GOARCH+")") {
				t.Errorf("line = %q, want it to start %q and end with the platform", line, tt.wantLine)
			}
			if v := got.clientVersion(); v != tt.wantV {
				t.Errorf("clientVersion = %q, want %q", v, tt.wantV)
			}
		})
	}
}

// TestVersionCommandAndFlag: both spellings print the one identity line.
func TestVersionCommandAndFlag(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errOut bytes.Buffer
		code := run(t.Context(), args, envOf(nil), streams{in: strings.NewReader(""), out: &out, err: &errOut})
		if want := identity().String() + "\n"; code != 0 || out.String() != want {
			t.Errorf("%v: exit %d, stdout %q, want %q (stderr %q)", args, code, out.String(), want, errOut.String())
		}
	}
}
