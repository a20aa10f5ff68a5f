package jsonvalue_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

func TestMarshal(t *testing.T) {
	type args struct {
		Path  string  `json:"path"`
		Limit float64 `json:"limit,omitempty"`
		HTML  string  `json:"html"`
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"struct", args{Path: "/a", Limit: 100, HTML: "<b>&"}, `{"path":"/a","limit":100,"html":"<b>&"}`},
		{"map sorted", map[string]int{"b": 1, "a": 2}, `{"a":2,"b":1}`},
		{"nil", nil, `null`},
		{"slice", []any{1.0, "x", true, nil}, `[1,"x",true,null]`},
		{"line separator", "\u2028", `"\u2028"`},
		{"invalid UTF-8", "a\xffb", `"a�b"`},
		{"float formatting", 1e21, `1e+21`},
		{"raw message recanonicalized", json.RawMessage(`{ "b" : 1.0 , "a" : [ ] }`), `{"b":1,"a":[]}`},
		{"value inside", map[string]jsonvalue.Value{"v": mustParse(t, `{"z":1,"a":2}`)}, `{"v":{"z":1,"a":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonvalue.Marshal(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("Marshal = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestMarshalNotLossless(t *testing.T) {
	type node struct{ Next *node }
	cycle := &node{}
	cycle.Next = cycle
	tests := []struct {
		name string
		in   any
	}{
		{"NaN", math.NaN()},
		{"+Inf", math.Inf(1)},
		{"-Inf in slice", []float64{1, math.Inf(-1)}},
		{"negative zero", math.Copysign(0, -1)},
		{"negative zero in struct", struct{ N float64 }{math.Copysign(0, -1)}},
		{"channel", make(chan int)},
		{"function", func() {}},
		{"complex", complex(1, 2)},
		{"cycle", cycle},
		{"zero Value", jsonvalue.Value{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonvalue.Marshal(tt.in)
			if !errors.Is(err, jsonvalue.ErrNotLossless) {
				t.Errorf("Marshal = %q, %v; want ErrNotLossless", got, err)
			}
		})
	}
}

func TestMarshalerFailureIsNotALosslessError(t *testing.T) {
	// A value's own MarshalJSON failing is its failure, not a lossy value.
	_, err := jsonvalue.Marshal(json.RawMessage(`{`))
	if err == nil || errors.Is(err, jsonvalue.ErrNotLossless) {
		t.Errorf("Marshal(bad raw message) error = %v; want a plain marshaler error", err)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	type envelope struct {
		Args jsonvalue.Value `json:"args"`
	}
	var e envelope
	if err := json.Unmarshal([]byte(`{"args": {"z": 1.0, "a": [ ]}}`), &e); err != nil {
		t.Fatal(err)
	}
	if got := e.Args.Canonical(); got != `{"z":1,"a":[]}` {
		t.Errorf("UnmarshalJSON kept %s", got)
	}
	out, err := json.Marshal(e)
	if err != nil || string(out) != `{"args":{"z":1,"a":[]}}` {
		t.Errorf("MarshalJSON = %s, %v", out, err)
	}
	before := e.Args
	if err := json.Unmarshal([]byte(`{"args": -0}`), &e); !errors.Is(err, jsonvalue.ErrNotLossless) {
		t.Errorf("UnmarshalJSON(-0) = %v, want ErrNotLossless", err)
	}
	if e.Args.Canonical() != before.Canonical() {
		t.Errorf("failed UnmarshalJSON changed the value to %s", e.Args)
	}
}

func TestQuoteIsCanonical(t *testing.T) {
	for _, s := range []string{"", "plain", "a\xffb", "\xff\xfe", "<&>", "\u2028", "tab\tquote\"back\\", "\x00\x1f", "é\U0001F600"} {
		quoted := jsonvalue.Quote(s)
		again, err := jsonvalue.Canonicalize(quoted)
		if err != nil || again != quoted {
			t.Errorf("Quote(%q) = %q, canonical %q (%v)", s, quoted, again, err)
		}
		if via, _ := json.Marshal(s); string(via) != quoted {
			if canon, _ := jsonvalue.Canonicalize(string(via)); canon != quoted {
				t.Errorf("Quote(%q) = %q, encoding/json canonical = %q", s, quoted, canon)
			}
		}
	}
}
