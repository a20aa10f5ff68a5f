package secrets_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/secrets"
)

func TestRedactorString(t *testing.T) {
	red := secrets.NewRedactor("sk-live-0123456789", "live-0123", "", `p<a>"ss`)
	for _, tt := range []struct{ in, want string }{
		{"no secret here", "no secret here"},
		{"key sk-live-0123456789 and live-0123", "key [REDACTED] and [REDACTED]"},
		{`odd p<a>"ss`, "odd [REDACTED]"},
	} {
		if got := red.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var none *secrets.Redactor
	if got := none.String("sk-live-0123456789"); got != "sk-live-0123456789" || !none.Empty() || none.Contains([]byte("x")) {
		t.Errorf("a nil Redactor changed %q", got)
	}
}

func TestRedactorJSON(t *testing.T) {
	red := secrets.NewRedactor("sk-live-0123456789", `p<a>"ss`, "n0123456789")
	for _, tt := range []struct{ name, in, want string }{
		{"no secret: as is", `{"b":1, "a":"x"}`, `{"b":1, "a":"x"}`},
		{"order and numbers kept", `{"z":"key sk-live-0123456789","a":[1.50,true,null,{"k":"sk-live-0123456789"}]}`,
			`{"z":"key [REDACTED]","a":[1.50,true,null,{"k":"[REDACTED]"}]}`},
		{"escaped spelling", `{"t":"p<a>\"ss"}`, `{"t":"[REDACTED]"}`},
		{"HTML-escaped spelling", `{"t":"p\u003ca\u003e\"ss!"}`, `{"t":"[REDACTED]!"}`},
		{"in a key", `{"sk-live-0123456789":1}`, `{"[REDACTED]":1}`},
		// "\n0123456789" is a newline then digits: no secret, and a blind
		// byte replacement would have broken the escape.
		{"never inside an escape", `["a\n0123456789","n0123456789"]`, `["a\n0123456789","[REDACTED]"]`},
		{"HTML stays unescaped", `["<sk-live-0123456789>"]`, `["<[REDACTED]>"]`},
	} {
		got, err := red.JSON([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: JSON(%s): %v", tt.name, tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: JSON(%s) = %s, want %s", tt.name, tt.in, got, tt.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: %s is not valid JSON", tt.name, got)
		}
	}
	if _, err := red.JSON([]byte(`{"a":"sk-live-0123456789"`)); err == nil || !strings.HasPrefix(err.Error(), "redact: ") {
		t.Errorf("truncated JSON: err = %v", err)
	}
}

func TestRedactorPending(t *testing.T) {
	red := secrets.NewRedactor("sk-live-0123456789", "token-abc")
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"nothing here", 0},
		{"output sk-li", len("sk-li")},
		{"output s", 1},
		{"output tok", 3},
		{"a whole sk-live-0123456789", 0}, // complete: the redactor hides it
		{"sk-live-012345678", len("sk-live-012345678")},
		{"x sk-live", len("sk-live")},
	} {
		if got := red.Pending(tt.in); got != tt.want {
			t.Errorf("Pending(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	var none *secrets.Redactor
	if none.Pending("sk-li") != 0 {
		t.Error("a nil Redactor holds something back")
	}
}
