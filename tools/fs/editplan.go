package fs

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/diffcard"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// editPlan is an edit worked out on a file's text before anything is
// written.
type editPlan struct {
	// text is what sites index: the file's text, with CRLF as LF when the
	// file uses CRLF throughout.
	text string
	// crlf says the result goes back to disk with CRLF line breaks.
	crlf             bool
	sites            []diffcard.Site
	finalNewlineKept bool
}

// onDisk returns the bytes to write: text with the sites applied (and LF
// turned back into CRLF for a CRLF file), built in one buffer.
func (p editPlan) onDisk() []byte {
	size := len(p.text)
	for _, s := range p.sites {
		size += len(s.New) - s.OldLen
	}
	add := func(buf []byte, s string) []byte { return append(buf, s...) }
	if p.crlf {
		size += size / 16 // a guess at the CRs; append grows it if short
		add = appendCRLF
	}
	buf := make([]byte, 0, size)
	at := 0
	for _, s := range p.sites {
		buf = add(buf, p.text[at:s.Offset])
		buf = add(buf, s.New)
		at = s.Offset + s.OldLen
	}
	return add(buf, p.text[at:])
}

// appendCRLF appends s to buf with every "\n" written as "\r\n".
func appendCRLF(buf []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(buf, s...)
		}
		buf = append(append(buf, s[:i]...), '\r', '\n')
		s = s[i+1:]
	}
}

// hunks are the plan's applied hunks, built from the sites and labelled
// with path (the file_path the model wrote): whole lines, with the line
// breaks onDisk writes (CRLF for a CRLF file).
func (p editPlan) hunks(path string) ([]presentation.FileDiff, error) {
	diffs, err := diffcard.EditHunks(path, p.text, p.sites)
	if err != nil || !p.crlf {
		return diffs, err
	}
	for i, d := range diffs {
		diffs[i].NewText = string(appendCRLF(nil, d.NewText))
		if d.OldText != nil {
			old := string(appendCRLF(nil, *d.OldText))
			diffs[i].OldText = &old
		}
	}
	return diffs, nil
}

// result is edit's value for the plan: its hunks (see hunks), labelled
// with path; name is the file as messages name it.
func (p editPlan) result(path, name string) (EditResult, error) {
	diffs, err := p.hunks(path)
	if err != nil {
		return EditResult{}, fmt.Errorf("edit %s: %w", name, err)
	}
	return EditResult{
		Path:             name,
		Replacements:     len(p.sites),
		FinalNewlineKept: p.finalNewlineKept,
		Diffs:            hunksOf(diffs),
	}, nil
}

// fillPlan is the plan that gives an empty (or missing) file text, written
// exactly as given.
func fillPlan(text string) editPlan {
	p := editPlan{}
	if detectEndings(text) == endingsCRLF {
		text, p.crlf = toLF(text), true
	}
	p.sites = []diffcard.Site{{New: text}}
	return p
}

// planEdit works out the edit of a file holding raw (valid UTF-8) that
// replaces oldS with newS, once or, with all, everywhere. In a file with
// uniform line endings both strings are matched and written with the
// file's endings whatever endings they use; a file mixing CRLF and LF is
// matched byte for byte. The edit never adds or removes the final line
// break. Errors are the coded errors the model reads.
func planEdit(raw, oldS, newS string, all bool, name string) (editPlan, error) {
	if raw == "" {
		if oldS != "" {
			return editPlan{}, toolError(CodeNoMatch, "old_string was not found in %s, which is empty: to give it content, use write, or edit with an empty old_string", name)
		}
		return fillPlan(newS), nil
	}
	endings := detectEndings(raw)
	p := editPlan{text: raw}
	switch endings {
	case endingsCRLF:
		p.text, p.crlf = toLF(raw), true
		oldS, newS = toLF(oldS), toLF(newS)
	case endingsLF, endingsNone:
		oldS, newS = toLF(oldS), toLF(newS)
	}
	if oldS == "" {
		return editPlan{}, toolError(CodeEmptyOldString, "old_string is empty, but %s has content: put the exact text to replace in old_string (read the file to copy it), or use write to replace the whole file", name)
	}
	if oldS == newS {
		return editPlan{}, toolError(CodeNoChange, "old_string and new_string differ only in line endings, and edit keeps the file's own (%s): there is nothing to change", endingsName(endings))
	}
	offsets := occurrences(p.text, oldS)
	switch {
	case len(offsets) == 0:
		return editPlan{}, notFoundError(name, p.text, oldS, endings)
	case len(offsets) > 1 && !all:
		return editPlan{}, notUniqueError(name, p.text, offsets)
	}
	p.sites = make([]diffcard.Site, len(offsets))
	for i, off := range offsets {
		p.sites[i] = diffcard.Site{Offset: off, OldLen: len(oldS), New: newS}
	}
	if fixed, ok := keepFinalNewline(p.text, p.sites); ok {
		if unchanged(p.text, fixed) {
			return editPlan{}, toolError(CodeNoChange, "this edit would only add or remove the final line break of %s, which edit always keeps as it is: use write to change it", name)
		}
		p.sites, p.finalNewlineKept = fixed, true
	}
	return p, nil
}

// occurrences returns the offsets of the non-overlapping occurrences of
// sub in s, in order; sub is not empty.
func occurrences(s, sub string) []int {
	var offsets []int
	for at := 0; ; {
		i := strings.Index(s[at:], sub)
		if i < 0 {
			return offsets
		}
		offsets = append(offsets, at+i)
		at += i + len(sub)
	}
}

// unchanged reports whether sites leave text as it is.
func unchanged(text string, sites []diffcard.Site) bool {
	for _, s := range sites {
		if text[s.Offset:s.Offset+s.OldLen] != s.New {
			return false
		}
	}
	return true
}

// lastByte returns the last byte of the text sites make of before, and
// false when that text is empty.
func lastByte(before string, sites []diffcard.Site) (byte, bool) {
	end := len(before)
	for i := len(sites) - 1; i >= 0; i-- {
		s := sites[i]
		if s.Offset+s.OldLen < end {
			break // unchanged text follows this site
		}
		if s.New != "" {
			return s.New[len(s.New)-1], true
		}
		end = s.Offset
	}
	if end == 0 {
		return 0, false
	}
	return before[end-1], true
}

// keepFinalNewline returns sites adjusted so that the text they make of
// before ends in a line break exactly when before does. It returns false
// when nothing needs to change, or when no adjustment within the sites can
// do it. An edit that empties the file is left alone.
func keepFinalNewline(before string, sites []diffcard.Site) ([]diffcard.Site, bool) {
	last, nonEmpty := lastByte(before, sites)
	had, has := strings.HasSuffix(before, "\n"), last == '\n'
	if before == "" || !nonEmpty || had == has || len(sites) == 0 {
		return nil, false
	}
	fixed := append([]diffcard.Site(nil), sites...)
	end := &fixed[len(fixed)-1]
	if end.Offset+end.OldLen != len(before) {
		return nil, false // the end of the file is untouched: cannot be
	}
	if had {
		// The edit removed the final break: put the file's own back.
		end.New += finalBreak(before)
		return fixed, true
	}
	// The edit added a final break: take it out of the new text, or, when
	// the new text is empty and the break precedes it, widen the site over
	// that break.
	if strings.HasSuffix(end.New, "\n") {
		end.New = strings.TrimSuffix(end.New, finalBreak(end.New))
		return fixed, true
	}
	if end.New != "" {
		return nil, false
	}
	start := end.Offset - len(finalBreak(before[:end.Offset]))
	if len(fixed) > 1 {
		if prev := fixed[len(fixed)-2]; prev.Offset+prev.OldLen > start {
			return nil, false
		}
	}
	end.Offset, end.OldLen = start, end.OldLen+(end.Offset-start)
	return fixed, true
}

// finalBreak returns the line break s ends with: "\r\n" or "\n".
func finalBreak(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// endingsName names line endings for messages.
func endingsName(e lineEndings) string {
	switch e {
	case endingsCRLF:
		return "CRLF"
	case endingsMixed:
		return "mixed CRLF and LF"
	default:
		return "LF"
	}
}
