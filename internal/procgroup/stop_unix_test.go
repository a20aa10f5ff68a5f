//go:build unix

package procgroup_test

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
	"github.com/dsh-acp/dsh-acp/internal/procgroup"
)

// TestStopEndsTheWholeGroup: a leader that started a child in the
// background and one that ignores SIGTERM are both gone once Stop
// returns: SIGTERM first, SIGKILL after the grace.
func TestStopEndsTheWholeGroup(t *testing.T) {
	for _, tt := range []struct{ name, script string }{
		{"a child that dies on SIGTERM", `sleep 1000 & echo $!; exec sleep 1000`},
		{"a child that ignores SIGTERM", `sh -c 'trap "" TERM; echo $$; exec sleep 1000' & read _; exec sleep 1000`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tt.script)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			child, _ := strconv.Atoi(strings.TrimSpace(line))
			_, _ = stdin.Write([]byte("\n")) // the trap is set: go on
			pgid := cmd.Process.Pid
			if !procgroup.Alive(pgid) {
				t.Fatalf("group %d not alive before Stop", pgid)
			}
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }() // reap the leader, as its owner does
			procgroup.Stop(pgid, 50*time.Millisecond)
			<-done
			if procgroup.Alive(pgid) {
				t.Errorf("group %d still has a live member after Stop", pgid)
			}
			if st, ok := procfs.ReadStat(strconv.Itoa(child)); ok && st.Live() {
				t.Errorf("child %d still runs", child)
			}
		})
	}
}
