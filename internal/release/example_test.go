package release_test

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/internal/release"
)

// Each platform of a release, with its archive and its npm package.
func ExampleTargets() {
	for _, t := range release.Targets() {
		fmt.Println(t.Platform, t.Archive("0.2.0"), t.NPMPackage())
	}
	// Output:
	// darwin-aarch64 dsh-acp-0.2.0-darwin-aarch64.tar.gz @dsh-acp/darwin-arm64
	// darwin-x86_64 dsh-acp-0.2.0-darwin-x86_64.tar.gz @dsh-acp/darwin-x64
	// linux-aarch64 dsh-acp-0.2.0-linux-aarch64.tar.gz @dsh-acp/linux-arm64
	// linux-x86_64 dsh-acp-0.2.0-linux-x86_64.tar.gz @dsh-acp/linux-x64
	// windows-aarch64 dsh-acp-0.2.0-windows-aarch64.zip @dsh-acp/win32-arm64
	// windows-x86_64 dsh-acp-0.2.0-windows-x86_64.zip @dsh-acp/win32-x64
}
