package procgroup_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procgroup"
)

// roleEnv makes the test binary play a part instead of running tests:
// "parent" starts a "child" and waits; "child" waits. Each says "ready"
// on its stdout, which both share.
const roleEnv = "PROCGROUP_TEST_ROLE"

// playRole plays role and never returns while the test lets it live.
func playRole(role string) {
	if role == "parent" {
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), roleEnv+"=child")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	fmt.Println("ready")
	time.Sleep(time.Hour)
	os.Exit(3)
}

// TestStopEndsTheProgramAndWhatItStarted: a program held with Isolate and
// Hold that started a child of its own is gone with that child once Stop
// returns, on every platform (a process group on Unix, a job on Windows).
// Both hold the write end of one pipe, so its reader sees the end of the
// stream only when neither lives.
func TestStopEndsTheProgramAndWhatItStarted(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=parent")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	procgroup.Isolate(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	group, err := procgroup.Hold(cmd)
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(out)
	for range 2 {
		line, err := lines.ReadString('\n')
		if strings.TrimSpace(line) != "ready" {
			t.Fatalf("read %q (%v), want ready from the parent and its child", line, err)
		}
	}
	group.Stop(procgroup.Grace)
	rest, err := readAllOrHang(t, lines)
	if err != nil || rest != "" {
		t.Fatalf("after Stop, the stream gave %q (%v), want its end", rest, err)
	}
	_ = cmd.Wait()
	group.Stop(procgroup.Grace) // stopping again does nothing
}

// readAllOrHang reads r to its end, failing the test (as a hang guard,
// not a timing check) if that takes minutes.
func readAllOrHang(t *testing.T, r io.Reader) (string, error) {
	t.Helper()
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(r)
		done <- result{string(b), err}
	}()
	select {
	case r := <-done:
		return r.text, r.err
	case <-time.After(2 * time.Minute):
		t.Fatal("a process of the group still holds its stdout")
		return "", nil
	}
}
