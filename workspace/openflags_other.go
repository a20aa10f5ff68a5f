//go:build !unix

package workspace

// safeOpenFlags are not needed where there are no named pipes or
// terminals in the file system to block or capture an open.
const safeOpenFlags = 0

// noFollowFlag is not available here; a path's links are followed once
// before it is opened.
const noFollowFlag = 0
