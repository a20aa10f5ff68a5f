package session_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// The environment of a helper process: what it does, in which store, on
// what.
const (
	helperModeEnv = "DSH_SESSION_STORE_HELPER"
	helperDirEnv  = "DSH_SESSION_STORE_DIR"
	helperArgEnv  = "DSH_SESSION_STORE_ARG"
)

// helperLine prefixes the lines a helper reports on.
const helperLine = "HELPER: "

// TestStoreHelperProcess is not a test: it is the second process of the
// tests below, started by startHelper from the test binary itself. It
// reports on stdout, one line each, prefixed by helperLine.
func TestStoreHelperProcess(t *testing.T) {
	mode := os.Getenv(helperModeEnv)
	if mode == "" {
		t.Skip("runs only as a helper process")
	}
	store, err := session.OpenStore(os.Getenv(helperDirEnv), session.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	arg := os.Getenv(helperArgEnv)
	switch mode {
	case "churn":
		// Start together with the parent: it says go on stdin.
		fmt.Println(helperLine + "ready")
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		if err := churn(store, arg, churnSessions); err != nil {
			t.Fatal(err)
		}
		fmt.Println(helperLine + "done")
	case "probe":
		// What this process can do with the session: get it, then open
		// it (closing it again) or, when that fails, delete it.
		_, getErr := store.Get(arg)
		j, _, openErr := store.Open(arg)
		report := fmt.Sprintf("get=%s open=%s", outcome(getErr), outcome(openErr))
		if openErr == nil {
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
		} else {
			report += fmt.Sprintf(" delete=%s: %v", outcome(store.Delete(arg)), openErr)
		}
		fmt.Println(helperLine + report)
	default:
		t.Fatalf("unknown helper mode %q", mode)
	}
}

// outcome names what a store call came to, for a helper's report.
func outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, session.ErrNotFound):
		return "not-found"
	case errors.Is(err, session.ErrLocked):
		return "locked"
	default:
		return "error"
	}
}

// helper is the test binary running TestStoreHelperProcess.
type helper struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Scanner
	stderr bytes.Buffer
}

// startHelper starts a helper process in mode on the store in dir.
func startHelper(t *testing.T, dir, mode, arg string) *helper {
	t.Helper()
	// A hang guard only: a helper finishes in seconds.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	h := &helper{cmd: exec.CommandContext(ctx, os.Args[0], "-test.run=^TestStoreHelperProcess$", "-test.count=1")}
	h.cmd.Env = append(os.Environ(), helperModeEnv+"="+mode, helperDirEnv+"="+dir, helperArgEnv+"="+arg)
	h.cmd.Stderr = &h.stderr
	var err error
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.stdout = bufio.NewScanner(out)
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return h
}

// next returns the helper's next report.
func (h *helper) next(t *testing.T) string {
	t.Helper()
	var other []string
	for h.stdout.Scan() {
		if report, ok := strings.CutPrefix(h.stdout.Text(), helperLine); ok {
			return report
		}
		other = append(other, h.stdout.Text())
	}
	t.Fatalf("helper ended without a report: %v\n%s\n%s", h.cmd.Wait(), strings.Join(other, "\n"), h.stderr.String())
	return ""
}

// wait waits for the helper to exit and fails the test unless it passed.
func (h *helper) wait(t *testing.T) {
	t.Helper()
	h.stdin.Close()
	for h.stdout.Scan() {
	}
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("helper: %v\n%s", err, h.stderr.String())
	}
}

// runHelper runs a helper to its end and returns its one report.
func runHelper(t *testing.T, dir, mode, arg string) string {
	t.Helper()
	h := startHelper(t, dir, mode, arg)
	report := h.next(t)
	h.wait(t)
	return report
}

// churnSessions is how many sessions each process of the churn test makes.
const churnSessions = 25

// churn creates n sessions named prefix-0 … prefix-(n-1) and, between
// them, retitles earlier ones and lists the store, as an editor window
// does.
func churn(store *session.Store, prefix string, n int) error {
	for i := range n {
		id := fmt.Sprintf("%s-%d", prefix, i)
		j, err := store.Create(session.Meta{ID: id, Cwd: "/shared", Title: "new"})
		if err != nil {
			return err
		}
		log := session.NewLog(nil)
		log.SetSink(j)
		log.Append(session.TurnStarted{})
		log.Append(session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("prompt " + id)}})
		for k := range 50 {
			log.Append(session.AssistantChunk{Text: strconv.Itoa(k)})
			if k%10 == 0 {
				if err := j.Flush(); err != nil {
					return err
				}
			}
		}
		log.Append(session.TurnEnded{Reason: session.StopEndTurn})
		if err := j.Close(); err != nil {
			return err
		}
		for _, target := range []string{id, fmt.Sprintf("%s-%d", prefix, i/2)} {
			if _, err := store.UpdateMeta(target, func(m *session.Meta) { m.Title = "title " + target }); err != nil {
				return err
			}
		}
		if _, err := store.List("/shared"); err != nil {
			return err
		}
	}
	return nil
}

// TestStoreSharedByTwoProcesses: two processes creating and updating
// sessions in one directory at once lose nothing and corrupt nothing.
func TestStoreSharedByTwoProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	store, err := session.OpenStore(dir, session.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	child := startHelper(t, dir, "churn", "child")
	if got := child.next(t); got != "ready" {
		t.Fatalf("helper: %s", got)
	}
	if _, err := io.WriteString(child.stdin, "go\n"); err != nil {
		t.Fatal(err)
	}
	if err := churn(store, "parent", churnSessions); err != nil {
		t.Error(err)
	}
	if got := child.next(t); got != "done" {
		t.Fatalf("helper: %s", got)
	}
	child.wait(t)

	metas, err := store.List("/shared")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range metas {
		ids = append(ids, m.ID)
		if m.Title != "title "+m.ID {
			t.Errorf("%s is titled %q", m.ID, m.Title)
		}
	}
	var want []string
	for _, prefix := range []string{"child", "parent"} {
		for i := range churnSessions {
			want = append(want, fmt.Sprintf("%s-%d", prefix, i))
		}
	}
	slices.Sort(ids)
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("index holds %v\nwant %v", ids, want)
	}
	for _, id := range want {
		j, loaded, err := store.Open(id)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		text := ""
		for _, ev := range loaded.Events {
			if c, ok := ev.Payload.(session.AssistantChunk); ok {
				text += c.Text
			}
		}
		if loaded.Skipped != 0 || len(loaded.Events) != 4 || !strings.HasPrefix(text, "0123456789") {
			t.Errorf("%s loaded %v (skipped %d), text %q", id, kinds(loaded.Events), loaded.Skipped, text)
		}
	}
}

// TestStoreLockedInAnotherProcess: a session open here does not exist
// there until it has something to keep; from then on it is refused there,
// naming this process, and it opens there once closed here.
func TestStoreLockedInAnotherProcess(t *testing.T) {
	const id = "held-session-id"
	locked := fmt.Sprintf("get=ok open=locked delete=locked: session held-ses… is open in another dsh-acp process (pid %d); close it there first", os.Getpid())
	notFound := "get=not-found open=not-found delete=not-found: session not found: " + id
	tests := []struct {
		name string
		keep func(t *testing.T, ts *testStore, j *session.Journal) // gives the session something to keep
	}{
		{"an event", func(t *testing.T, ts *testStore, j *session.Journal) {
			record(t, j, session.NewLog(nil), session.TurnStarted{})
		}},
		{"a meta update", func(t *testing.T, ts *testStore, j *session.Journal) {
			if _, err := ts.UpdateMeta(id, func(m *session.Meta) { m.Title = "titled" }); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestStore(t)
			j := ts.create(t, session.Meta{ID: id})
			if got := runHelper(t, ts.dir, "probe", id); got != notFound {
				t.Errorf("before it kept anything the helper said\n%s\nwant\n%s", got, notFound)
			}
			tt.keep(t, ts, j)
			if got := runHelper(t, ts.dir, "probe", id); got != locked {
				t.Errorf("helper said\n%s\nwant\n%s", got, locked)
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			if got := runHelper(t, ts.dir, "probe", id); got != "get=ok open=ok" {
				t.Errorf("after Close the helper said %q", got)
			}
		})
	}
}
