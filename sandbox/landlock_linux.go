//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"slices"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// The rights the rules grant.
const (
	readFile  = llsys.AccessFSExecute | llsys.AccessFSReadFile
	readDir   = readFile | llsys.AccessFSReadDir
	writeFile = llsys.AccessFSWriteFile | llsys.AccessFSTruncate
	writeDir  = writeFile | llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile | llsys.AccessFSMakeChar |
		llsys.AccessFSMakeDir | llsys.AccessFSMakeReg | llsys.AccessFSMakeSock | llsys.AccessFSMakeFifo |
		llsys.AccessFSMakeSym
)

// requestedABI is the Landlock ABI whose rights restrict asks for; on an
// older kernel go-landlock's best effort lowers it to the kernel's.
const requestedABI = 7

// landlockABI is the Landlock ABI version commands are restricted with:
// the kernel's, up to requestedABI; 0 for none.
func landlockABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return min(v, requestedABI)
}

// restrict confines this process and everything it starts to p with
// Landlock, as far as the kernel's ABI goes: reads everywhere but
// p.DenyRead, changes only in p.Write (around p.DenyRead), no TCP unless
// tcp is set, no signals to processes outside the sandbox, no access to
// their environment or memory.
func restrict(p Policy, tcp bool) error {
	denied := resolveAll(p.DenyRead)
	var rules []landlock.Rule
	reads, ancestors := cover("/", denied, os.ReadDir)
	rules = append(rules, grantRules(reads, readDir, readFile, false)...)
	if len(ancestors) > 0 {
		rules = append(rules, landlock.PathAccess(llsys.AccessFSReadDir, ancestors...))
	}
	for _, root := range resolveAll(p.Write) {
		info, err := os.Stat(root)
		if err != nil {
			continue // nothing there to write
		}
		writes := []grant{{path: root}}
		if info.IsDir() {
			writes, _ = cover(root, denied, os.ReadDir)
		} else if slices.ContainsFunc(denied, func(d string) bool { return below(root, d) }) {
			continue
		}
		rules = append(rules, grantRules(writes, readDir|writeDir, readFile|writeFile, true)...)
	}
	requested := landlock.V7 // requestedABI
	cfg := landlock.Config{HandledAccessFS: requested.HandledAccessFS, Scoped: requested.Scoped}
	if !tcp {
		cfg.HandledAccessNet = requested.HandledAccessNet
	}
	if err := cfg.BestEffort().Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// grantRules are the rules granting dirRights below each directory of
// grants and fileRights on each file. Writable directories also get the
// right to move files in and out (refer); device files the right to
// their ioctls.
func grantRules(grants []grant, dirRights, fileRights landlock.AccessFSSet, writable bool) []landlock.Rule {
	var dirs, files []string
	for _, g := range grants {
		if g.dir {
			dirs = append(dirs, g.path)
		} else {
			files = append(files, g.path)
		}
	}
	var rules []landlock.Rule
	if len(dirs) > 0 {
		r := landlock.PathAccess(dirRights, dirs...).IgnoreIfMissing()
		if writable {
			r = r.WithRefer()
		}
		rules = append(rules, r)
	}
	if len(files) > 0 {
		r := landlock.PathAccess(fileRights, files...).IgnoreIfMissing()
		if writable {
			r = r.WithIoctlDev()
		}
		rules = append(rules, r)
	}
	return rules
}
