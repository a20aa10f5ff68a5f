package llm

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitAfterSpace(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"one", []string{"one"}},
		{"Hello big world", []string{"Hello ", "big ", "world"}},
		{"  lead\n\ntrail  ", []string{"  lead\n\n", "trail  "}},
		{"héllo wörld", []string{"héllo ", "wörld"}},
	}
	for _, tt := range tests {
		got := splitAfterSpace(tt.in)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitAfterSpace(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Join(got, "") != tt.in {
			t.Errorf("pieces of %q do not join back", tt.in)
		}
	}
}

func TestNormalizeFinishReason(t *testing.T) {
	tests := map[string]FinishReason{
		"stop": FinishStop, "tool_calls": FinishToolCalls, "function_call": FinishToolCalls,
		"length": FinishLength, "content_filter": FinishContentFilter,
		"insufficient_system_resource": FinishOther, "": FinishOther,
	}
	for raw, want := range tests {
		if got := normalizeFinishReason(raw); got != want {
			t.Errorf("normalizeFinishReason(%q) = %q, want %q", raw, got, want)
		}
	}
}
