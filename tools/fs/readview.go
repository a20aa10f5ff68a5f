package fs

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// The envelope around read's line-numbered body:
// <path>P</path>\n<type>file</type>\n<content>\nBODY\n</content>.
const (
	envelopeTypeLine = "</path>\n<type>file</type>\n<content>\n"
	envelopeEnd      = "\n</content>"
)

// renderRead is what the model reads: the envelope around the numbered
// lines, with a note saying how to continue when more lines remain.
func renderRead(_ ReadArgs, r ReadResult) ([]presentation.ContentBlock, error) {
	var b strings.Builder
	b.WriteString("<path>" + r.Path + envelopeTypeLine)
	b.WriteString(readBody(r))
	b.WriteString(envelopeEnd)
	return []presentation.ContentBlock{presentation.Text(b.String())}, nil
}

// readBody is the envelope's body: each line as cat -n numbers it, then a
// note when the window stops before the end of the file.
func readBody(r ReadResult) string {
	if r.TotalLines == 0 {
		return "(the file is empty)"
	}
	var b strings.Builder
	for i, l := range r.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		num := strconv.Itoa(l.Number)
		if pad := 6 - len(num); pad > 0 {
			b.WriteString(strings.Repeat(" ", pad))
		}
		b.WriteString(num)
		b.WriteByte('\t')
		b.WriteString(l.Text)
	}
	if r.NextOffset > 0 {
		fmt.Fprintf(&b, "\n\n(Showing lines %d-%d of %d. To see more, read with offset %d.)",
			r.Offset, r.NextOffset-1, r.TotalLines, r.NextOffset)
	}
	return b.String()
}

// readMetaValue is read's presentation meta.
type readMetaValue struct {
	Path       string     `json:"path"`
	Offset     int        `json:"offset"`
	Lines      []ReadLine `json:"lines"`
	TotalLines int        `json:"totalLines"`
	Lang       string     `json:"lang,omitempty"`
}

// readMeta is {path, offset, lines, totalLines, lang?}, path being the
// file_path the model wrote.
func readMeta(args ReadArgs, r ReadResult) (any, error) {
	lines := r.Lines
	if lines == nil {
		lines = []ReadLine{}
	}
	return readMetaValue{Path: args.FilePath, Offset: r.Offset, Lines: lines, TotalLines: r.TotalLines, Lang: r.Lang}, nil
}

// presentReadResult is the read card built from meta. It declines (nil) an
// error, content that is not one text block in the envelope, and malformed
// meta.
func presentReadResult(args ReadArgs, result presentation.ToolResult) presentation.ResultView {
	if result.IsError {
		return nil
	}
	text, ok := result.SingleText()
	if !ok {
		return nil
	}
	body, ok := envelopeBody(text)
	if !ok {
		return nil
	}
	meta, ok := parseReadMeta(result.Meta)
	if !ok {
		return nil
	}
	return presentation.ReadResultView{
		Title:      readTitle(args),
		Path:       meta.Path,
		Offset:     meta.Offset,
		Lines:      meta.Lines,
		TotalLines: meta.TotalLines,
		Lang:       meta.Lang,
		Content:    body,
	}
}

// envelopeBody returns the body of read's envelope, or false when text is
// not one.
func envelopeBody(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "<path>")
	if !ok {
		return "", false
	}
	path, rest, ok := strings.Cut(rest, envelopeTypeLine)
	if !ok || strings.Contains(path, "\n") {
		return "", false
	}
	return strings.CutSuffix(rest, envelopeEnd)
}

// parseReadMeta reads read's meta defensively: every member must be present
// with the right type; a line needs a number and a text.
func parseReadMeta(meta string) (presentation.ReadResultView, bool) {
	var m struct {
		Path   *string `json:"path"`
		Offset *int    `json:"offset"`
		Lines  *[]struct {
			Number *int    `json:"number"`
			Text   *string `json:"text"`
		} `json:"lines"`
		TotalLines *int    `json:"totalLines"`
		Lang       *string `json:"lang"`
	}
	if !strings.HasPrefix(meta, "{") || json.Unmarshal([]byte(meta), &m) != nil {
		return presentation.ReadResultView{}, false
	}
	if m.Path == nil || m.Offset == nil || m.Lines == nil || m.TotalLines == nil {
		return presentation.ReadResultView{}, false
	}
	v := presentation.ReadResultView{Path: *m.Path, Offset: *m.Offset, TotalLines: *m.TotalLines, Lines: make([]presentation.ReadFileLine, len(*m.Lines))}
	for i, l := range *m.Lines {
		if l.Number == nil || l.Text == nil {
			return presentation.ReadResultView{}, false
		}
		v.Lines[i] = presentation.ReadFileLine{Number: *l.Number, Text: *l.Text}
	}
	if m.Lang != nil {
		v.Lang = *m.Lang
	}
	return v, true
}
