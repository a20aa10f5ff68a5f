package bridge

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/session"
)

func TestMarkdownSteps(t *testing.T) {
	tests := []struct {
		name, markdown string
		want           []string
	}{
		{"numbered", "# Plan\n\n1. Read a.go\n2) Change b.go\n", []string{"Read a.go", "Change b.go"}},
		{"bullets and boxes", "- [ ] one\n* two\n+ [x] three\r\n", []string{"one", "two", "three"}},
		{"nested items are not steps", "1. top\n   - detail\n\t- more\n 2. also top\n", []string{"top", "also top"}},
		{"not a list", "Refactor the parser.\n\n-not an item\n10.5 percent\n", []string{"Refactor the parser."}},
		{"a heading only", "## Rewrite it\n", []string{"Rewrite it"}},
		{"empty items are skipped", "- \n- [ ] \n- real\n", []string{"real"}},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range markdownSteps(tt.markdown) {
			if e.Status != "pending" || e.Priority != "medium" {
				t.Errorf("%s: entry %+v, want pending and medium", tt.name, e)
			}
			got = append(got, e.Content)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: steps %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestLoggedBeforePlan(t *testing.T) {
	mode := func(v string) session.Event {
		return session.Event{Payload: session.SettingChanged{Setting: optionMode, Value: v}}
	}
	model := session.Event{Payload: session.SettingChanged{Setting: optionModel, Value: "plan"}}
	tests := []struct {
		name    string
		history []session.Event
		want    policy.Preset
	}{
		{"nothing logged", nil, ""},
		{"entered plan from full-access", []session.Event{mode("full-access"), mode("plan")}, policy.FullAccess},
		{"the last entry counts", []session.Event{mode("read-only"), mode("plan"), mode("full-access"), mode("plan")}, policy.FullAccess},
		{"plan twice in a row keeps the first", []session.Event{mode("read-only"), mode("plan"), mode("plan")}, policy.ReadOnly},
		{"the first change is to plan", []session.Event{mode("plan")}, ""},
		{"other settings and bad values do not count", []session.Event{mode("read-only"), model, mode("yolo"), mode("plan")}, policy.ReadOnly},
	}
	for _, tt := range tests {
		if got := loggedBeforePlan(tt.history); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
