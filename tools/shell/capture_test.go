package shell

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCaptureKeepsWholeStreamWithinLimit(t *testing.T) {
	c := newCapture(5, 5)
	for _, s := range []string{"abc", "defg", "hij"} {
		if c.write([]byte(s)) {
			t.Fatalf("write(%q) overflowed within the limit", s)
		}
	}
	if c.truncated() || c.text() != "abcdefghij" {
		t.Errorf("text = %q, truncated = %v", c.text(), c.truncated())
	}
}

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	c := newCapture(10, 10)
	overflows := 0
	var all strings.Builder
	for i := range 100 {
		line := strings.Repeat(string(rune('a'+i%26)), 7) + "\n"
		all.WriteString(line)
		if c.write([]byte(line)) {
			overflows++
		}
	}
	if overflows != 1 {
		t.Errorf("overflowed %d times, want exactly once", overflows)
	}
	got := c.text()
	// Cut on line boundaries: the first whole line, then the last one.
	want := "aaaaaaa\n[... 784 bytes omitted ...]\nvvvvvvv\n"
	if got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if int64(len(all.String())) != c.total {
		t.Errorf("total = %d, want %d", c.total, len(all.String()))
	}
}

func TestCaptureCutsOnCharacters(t *testing.T) {
	c := newCapture(4, 4)
	c.write([]byte(strings.Repeat("é", 20))) // 40 bytes, no newline
	got := c.text()
	if !utf8.ValidString(got) || strings.ContainsRune(got, utf8.RuneError) {
		t.Fatalf("text %q splits a character", got)
	}
	if want := "éé\n[... 32 bytes omitted ...]\néé"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
}

func TestCaptureSince(t *testing.T) {
	c := newCapture(0, 4)
	c.write([]byte("abc"))
	if data, skipped := c.since(1); string(data) != "bc" || skipped != 0 {
		t.Errorf("since(1) = %q, %d", data, skipped)
	}
	c.write([]byte("defghij")) // keeps at least "ghij"
	data, skipped := c.since(3)
	if got := string(data); !strings.HasSuffix(got, "ghij") || int64(len(got))+skipped != 7 {
		t.Errorf("since(3) = %q, skipped %d: want the kept end of \"defghij\"", got, skipped)
	}
	if data, skipped := c.since(10); len(data) != 0 || skipped != 0 {
		t.Errorf("since(end) = %q, %d", data, skipped)
	}
}

func TestCompletePrefix(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"é", 2},
		{"a\xc3", 1},
		{"a\xe2\x82", 1},
		{"a\xe2\x82\xac", 4},
		{"\xf0\x9f\x98", 0},
		{"ab\xff", 3},    // invalid bytes count as complete
		{"a\x80\x80", 3}, // stray continuation bytes too
	}
	for _, tt := range tests {
		if got := completePrefix([]byte(tt.in)); got != tt.want {
			t.Errorf("completePrefix(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestRuneJoinerNeverSplitsCharacters(t *testing.T) {
	text := "héllo — wörld 😀\n"
	for size := 1; size <= 5; size++ {
		var j runeJoiner
		var out strings.Builder
		for b := []byte(text); len(b) > 0; {
			n := min(size, len(b))
			chunk := j.next(b[:n])
			if !utf8.ValidString(chunk) || strings.ContainsRune(chunk, utf8.RuneError) {
				t.Fatalf("size %d: chunk %q is not whole characters", size, chunk)
			}
			out.WriteString(chunk)
			b = b[n:]
		}
		out.WriteString(j.flush())
		if out.String() != text {
			t.Errorf("size %d: joined %q, want %q", size, out.String(), text)
		}
	}
	var j runeJoiner
	if got := j.next([]byte("a\xc3")) + j.flush(); got != "a\uFFFD" {
		t.Errorf("a stream ending mid-character gives %q", got)
	}
}

func TestSpoolUnavailable(t *testing.T) {
	s := newSpool(&spillDir{parent: t.TempDir() + "/missing"}, DefaultSpillLimit)
	s.write([]byte("abc"))
	s.activate()
	s.write([]byte("def"))
	s.close()
	if s.location() != "" {
		t.Errorf("location = %q, want none", s.location())
	}
}
