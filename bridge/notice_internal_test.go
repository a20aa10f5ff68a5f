package bridge

import (
	"strings"
	"testing"
)

func TestNoticeTitle(t *testing.T) {
	long := "MCP server web: " + strings.Repeat("connection refused by the host again ", 5)
	tests := []struct {
		name, text, title, description string
	}{
		{"one line is the title", "MCP server web: exited (status 1)", "MCP server web: exited (status 1)", ""},
		{"later lines describe", "MCP server web: exited (status 1)\nstderr: no such file", "MCP server web: exited (status 1)", "stderr: no such file"},
		{"a long line's first sentence is the title, the rest describes",
			"The image in this prompt was not sent: model m does not accept images. Configure images = true for the model if it does.\nmore",
			"The image in this prompt was not sent: model m does not accept images.", "Configure images = true for the model if it does.\nmore"},
		{"a long line is cut at a word, and is the description whole", long,
			"MCP server web: connection refused by the host again connection refused by the host again…", strings.TrimSpace(long)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			title, description := noticeTitle(tt.text)
			if title != tt.title || description != tt.description {
				t.Errorf("noticeTitle = %q, %q; want %q, %q", title, description, tt.title, tt.description)
			}
		})
	}
}
