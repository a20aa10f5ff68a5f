//go:build unix

package workspace

import "syscall"

// safeOpenFlags make an open return at once whatever the path turns out to
// be: a named pipe without a writer would otherwise hold it, and a
// terminal would become the process's controlling terminal.
const safeOpenFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// noFollowFlag makes an open of a path whose links were already followed
// fail rather than follow a link swapped in since.
const noFollowFlag = syscall.O_NOFOLLOW
