//go:build unix

package fs_test

import (
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

// hangGuard bounds a call that must not block; it guards against a wedged
// test and is never a timing assertion.
const hangGuard = 60 * time.Second

// TestNonRegularFilesAreRefused: read, write and edit of a named pipe (or
// a link to one, or a socket) are refused with a clear error, without
// waiting for a writer, and leave the file as it was (issue 7 item 1: they
// blocked forever).
func TestNonRegularFilesAreRefused(t *testing.T) {
	e := newEnv(t, fs.Options{})
	fifo := e.path("fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Whatever wedges on the pipe anyway is freed at the end, so the
	// test fails instead of hanging.
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
	linktest.Symlink(t, "fifo", e.path("fifo-link"))
	sock := e.path("sock")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	} else {
		sock = ""
	}
	calls := []struct{ tool, args string }{
		{"read", `{"file_path":%q}`},
		{"write", `{"file_path":%q,"content":"x\n"}`},
		{"edit", `{"file_path":%q,"old_string":"","new_string":"x"}`},
		{"edit", `{"file_path":%q,"old_string":"a","new_string":"b"}`},
	}
	for _, target := range []struct{ path, kind string }{{"fifo", "named pipe"}, {"fifo-link", "named pipe"}, {"sock", "socket"}} {
		if target.path == "sock" && sock == "" {
			continue
		}
		for _, c := range calls {
			args := strings.Replace(c.args, "%q", `"`+target.path+`"`, 1)
			done := make(chan pipeline.Result, 1)
			go func() { done <- e.exec(c.tool, args) }()
			var res pipeline.Result
			select {
			case res = <-done:
			case <-time.After(hangGuard):
				t.Fatalf("%s %s: blocked on the %s", c.tool, args, target.kind)
			}
			want := target.path + " is not a regular file (" + target.kind + "); read, write and edit work on regular files only"
			if !res.IsError || res.Code() != "FS_NOT_REGULAR" || !strings.Contains(text(res), want) {
				t.Errorf("%s %s: %q (code %q), want FS_NOT_REGULAR %q", c.tool, args, text(res), res.Code(), want)
			}
		}
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v", err)
	}
	noTempFiles(t, e.dir)
}
