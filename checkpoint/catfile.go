package checkpoint

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// blobReader reads objects from the shadow repository through one
// long-running `git cat-file --batch`, one request at a time.
type blobReader struct {
	ctx  context.Context
	in   io.WriteCloser
	out  *bufio.Reader
	wait func() error
	errs *strings.Builder
}

// openBlobs starts the reader. It must be closed.
func (g *gitRunner) openBlobs(ctx context.Context) (*blobReader, error) {
	cmd := g.command(ctx, nil, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		in.Close()
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	errs := &strings.Builder{}
	cmd.Stderr = errs
	if err := cmd.Start(); err != nil {
		in.Close()
		return nil, newGitError(ctx, []string{"cat-file"}, nil, err)
	}
	return &blobReader{ctx: ctx, in: in, out: bufio.NewReaderSize(out, 64<<10), wait: cmd.Wait, errs: errs}, nil
}

// read returns the content of the object named hash.
func (b *blobReader) read(hash string) ([]byte, error) {
	if _, err := io.WriteString(b.in, hash+"\n"); err != nil {
		return nil, b.fail(err)
	}
	header, err := b.out.ReadString('\n')
	if err != nil {
		return nil, b.fail(err)
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, fmt.Errorf("git cat-file: object %s is missing", hash)
	}
	if len(fields) != 3 {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	data := make([]byte, size+1) // the content and its closing newline
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, b.fail(err)
	}
	return data[:size], nil
}

// fail is the error of a broken conversation with cat-file.
func (b *blobReader) fail(err error) error {
	if ctxErr := b.ctx.Err(); ctxErr != nil {
		return fmt.Errorf("git cat-file: %w", ctxErr)
	}
	return fmt.Errorf("git cat-file: %w", err)
}

// close ends cat-file and waits for it.
func (b *blobReader) close() error {
	b.in.Close()
	if err := b.wait(); err != nil {
		return newGitError(b.ctx, []string{"cat-file"}, []byte(b.errs.String()), err)
	}
	return nil
}
