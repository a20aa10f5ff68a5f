//go:build unix

package shell

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

// BenchmarkEchoHi measures what the sandbox adds to a command's start:
// `echo hi` through the bash tool (pipeline, spawn, output, settle)
// unconfined, and in the sandbox as under workspace-write (the helper
// re-executed, its namespaces, Landlock).
func BenchmarkEchoHi(b *testing.B) {
	for _, variant := range []struct {
		name   string
		policy func(dir string) func(string) (sandbox.Policy, bool)
	}{
		{"unconfined", func(string) func(string) (sandbox.Policy, bool) { return unconfined }},
		{"sandboxed", func(dir string) func(string) (sandbox.Policy, bool) {
			return func(string) (sandbox.Policy, bool) { return workspaceWrite(dir), true }
		}},
	} {
		b.Run(variant.name, func(b *testing.B) {
			f := newFixture(b, Options{})
			f.sh.opts.SandboxPolicy = variant.policy(f.dir)
			f.sh.started = nil
			b.ReportAllocs()
			for b.Loop() {
				if _, text := f.run(b, "bash", `{"command":"echo hi"}`); text != "hi\n" {
					b.Fatalf("echo hi: %q", text)
				}
			}
		})
	}
}
