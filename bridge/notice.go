package bridge

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/session"
)

// noticeTitleMax bounds a notice's title in runes; the whole text is then
// its description.
const noticeTitleMax = 100

// notice shows what the session tells the user: a notice update to a
// client that shows them (live only: notices are not history), else a
// bracketed paragraph of the conversation, where it is read in place.
func (m *Mapper) notice(p session.Notice) []acp.Update {
	if !m.opts.Notices {
		return []acp.Update{acp.AgentMessageChunk{Content: acp.Text("\n\n[" + p.Text + "]\n\n")}}
	}
	if m.opts.Replay {
		return nil
	}
	title, description := noticeTitle(p.Text)
	return []acp.Update{acp.Notice{Severity: acp.NoticeWarning, Title: title, Description: description}}
}

// noticeTitle splits a notice's text into a title that stands alone (its
// first line; when that is long, its first sentence, or else the line cut
// at a word) and the rest.
func noticeTitle(text string) (title, description string) {
	text = strings.TrimSpace(text)
	first, rest, _ := strings.Cut(text, "\n")
	first = strings.TrimSpace(first)
	if utf8.RuneCountInString(first) <= noticeTitleMax {
		return first, strings.TrimSpace(rest)
	}
	if sentence, after, ok := strings.Cut(first, ". "); ok && utf8.RuneCountInString(sentence) < noticeTitleMax {
		return sentence + ".", strings.TrimSpace(after + "\n" + rest)
	}
	cut := first[:runeOffset(first, noticeTitleMax)]
	if i := strings.LastIndexByte(cut, ' '); i > noticeTitleMax/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…", text
}

// runeOffset is the byte offset of the nth rune of s.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// modelRetry tells of a model request that failed and is tried again: an
// info notice to a client that shows them (live only), else a bracketed
// line of the conversation.
func (m *Mapper) modelRetry(p session.ModelRetry) []acp.Update {
	if !m.opts.Notices {
		msg := fmt.Sprintf("\n\n[Model request failed (%s); retrying %d/%d in %dms]\n\n", p.Reason, p.Attempt, p.MaxAttempts, p.Wait.Milliseconds())
		return []acp.Update{acp.AgentMessageChunk{Content: acp.Text(msg)}}
	}
	if m.opts.Replay {
		return nil
	}
	return []acp.Update{acp.Notice{
		Severity:    acp.NoticeInfo,
		Title:       fmt.Sprintf("Model request failed; retrying (%d of %d)", p.Attempt, p.MaxAttempts),
		Description: fmt.Sprintf("%s. Trying again in %s.", p.Reason, p.Wait.Round(time.Millisecond)),
	}}
}
