// Package release makes dsh-acp's release: for every platform the ACP
// registry lists, a reproducible, stripped binary in an archive
// (.tar.gz, .zip for Windows) with LICENSE and README.md, a SHA256SUMS,
// the npm packages (a launcher, and one package per platform holding its
// binary) and the ACP registry entry. `make release VERSION=x.y.z` runs
// it through internal/cmd/mkrelease:
//
//	res, err := release.Release(ctx, release.Options{
//		Version: "0.2.0",
//		Commit:  "876f68a1b2c3",
//		ModTime: commitTime,
//		Out:     "dist",
//		Targets: release.Targets(),
//		Project: release.DshACP("."),
//		Builder: release.GoBuilder{Dir: ".", Version: "0.2.0", Commit: "876f68a1b2c3"},
//	})
//
// VerifyRelease then checks what it wrote against the registry's rules
// and the archives' checksums.
package release
