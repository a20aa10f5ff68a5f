package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/search/internal/ignore"
)

// ripgrepArgs are the flags that make ripgrep skip exactly what the
// built-in search skips: .gitignore (root, nested, parents up to the
// repository), .git/info/exclude, .ignore and .rgignore whether or not the
// tree is a git repository; not the user's global excludes; no config
// file; hidden entries, and files over the size cap.
func ripgrepArgs(pattern, include string, maxSize int64) []string {
	args := []string{
		"--json", "--no-config", "--no-require-git", "--no-ignore-global",
		"--max-filesize", strconv.FormatInt(maxSize, 10),
		"--regexp", pattern,
	}
	if include != "" {
		args = append(args, "--glob", include)
	}
	return append(args, "--", ".")
}

// ripgrep searches the directory root with ripgrep, streaming its JSON
// output into c. Cancelling ctx kills it. When ripgrep cannot run or
// refuses the search (its dialect rejects a pattern Go accepts, such as
// "\n"), the built-in search runs instead, so a pattern grep accepted
// always gets an answer.
func (g *grepper) ripgrep(ctx context.Context, root string, m *matcher, pattern, include string, inc *ignore.Pattern, c *collector) error {
	cmd := exec.CommandContext(ctx, g.opts.Ripgrep, ripgrepArgs(pattern, include, g.opts.MaxFileSize)...)
	cmd.Dir = root
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("grep: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return g.fallback(ctx, root, m, inc, c)
	}
	summary, readErr := readRipgrep(stdout, root, c)
	if readErr != nil {
		io.Copy(io.Discard, stdout)
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if readErr != nil {
		return &registry.Error{Code: CodeSearchFailed, Cause: readErr, Message: "grep: reading ripgrep's output: " + readErr.Error()}
	}
	var exit *exec.ExitError
	if waitErr != nil && !(errors.As(waitErr, &exit) && (exit.ExitCode() == 1 || summary)) {
		// Exit 2 after a summary means some files could not be read;
		// without one, ripgrep refused the search.
		c.reset()
		return g.fallback(ctx, root, m, inc, c)
	}
	return nil
}

// rgMessage is the part of one ripgrep --json message grep reads.
type rgMessage struct {
	Data struct {
		Path       rgData `json:"path"`
		Lines      rgData `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// rgData is ripgrep's arbitrary data: text, or base64 bytes when the data
// is not valid UTF-8.
type rgData struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

// String returns the data as (possibly invalid UTF-8) text.
func (d rgData) String() string {
	if d.Text != nil {
		return *d.Text
	}
	b, _ := base64.StdEncoding.DecodeString(d.Bytes)
	return string(b)
}

// readRipgrep feeds the match messages of a ripgrep --json stream to c,
// one file at a time, and reports whether the closing summary arrived.
func readRipgrep(r io.Reader, root string, c *collector) (summary bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var file []lineMatch
	for {
		line, rerr := br.ReadBytes('\n')
		switch {
		case bytes.HasPrefix(line, []byte(`{"type":"match"`)):
			var msg rgMessage
			if err := json.Unmarshal(line, &msg); err != nil {
				return false, err
			}
			path := filepath.Join(root, msg.Data.Path.String())
			if len(file) > 0 && file[0].path != path {
				c.add(file)
				file = file[:0]
			}
			text := strings.TrimSuffix(msg.Data.Lines.String(), "\n")
			file = append(file, lineMatch{path: path, line: msg.Data.LineNumber, text: text})
		case bytes.HasPrefix(line, []byte(`{"type":"end"`)):
			c.add(file)
			file = file[:0]
		case bytes.HasPrefix(line, []byte(`{"type":"summary"`)):
			summary = true
		}
		if rerr == io.EOF {
			c.add(file)
			return summary, nil
		}
		if rerr != nil {
			return summary, rerr
		}
	}
}
