package jsonvalue_test

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

func mustParse(t testing.TB, text string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return v
}

func TestKindString(t *testing.T) {
	tests := []struct {
		text string
		kind jsonvalue.Kind
		name string
	}{
		{`null`, jsonvalue.KindNull, "null"},
		{`true`, jsonvalue.KindBool, "boolean"},
		{`1`, jsonvalue.KindNumber, "number"},
		{`"s"`, jsonvalue.KindString, "string"},
		{`[]`, jsonvalue.KindArray, "array"},
		{`{}`, jsonvalue.KindObject, "object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mustParse(t, tt.text)
			if v.Kind() != tt.kind || v.Kind().String() != tt.name {
				t.Errorf("Kind = %v (%d), want %s", v.Kind(), v.Kind(), tt.name)
			}
		})
	}
	if got := jsonvalue.KindInvalid.String(); got != "invalid" {
		t.Errorf("KindInvalid.String() = %q", got)
	}
}

func TestAccessors(t *testing.T) {
	v := mustParse(t, `{"b":true,"n":-2.5,"s":"x\ty","a":[1,"two",null],"o":{"k":false}}`)
	if v.Len() != 5 {
		t.Fatalf("Len = %d", v.Len())
	}
	b, _ := v.Lookup("b")
	n, _ := v.Lookup("n")
	s, _ := v.Lookup("s")
	a, _ := v.Lookup("a")
	o, _ := v.Lookup("o")
	if !b.Bool() || n.Float() != -2.5 || s.Text() != "x\ty" {
		t.Errorf("scalars: %v %v %q", b.Bool(), n.Float(), s.Text())
	}
	if a.Len() != 3 || a.Index(1).Text() != "two" || a.Index(2).Kind() != jsonvalue.KindNull {
		t.Errorf("array: %v", a)
	}
	if m := v.Member(4); m.Key != "o" || m.Value.String() != `{"k":false}` {
		t.Errorf("Member(4) = %v", m)
	}
	if k, ok := o.Lookup("k"); !ok || k.Kind() != jsonvalue.KindBool || k.Bool() {
		t.Errorf("o.k = %v, %v", k, ok)
	}
	if _, ok := v.Lookup("missing"); ok {
		t.Error("Lookup(missing) found something")
	}
	// Accessors of the wrong kind return zero results.
	if s.Bool() || s.Float() != 0 || n.Text() != "" || n.Len() != 0 || s.Len() != 0 {
		t.Error("wrong-kind accessors returned non-zero results")
	}
	if _, ok := a.Lookup("0"); ok {
		t.Error("Lookup on an array found something")
	}
}

func TestIterators(t *testing.T) {
	v := mustParse(t, `{"x":1,"y":[true,false],"x":2}`)
	var keys []string
	for k, m := range v.Members() {
		keys = append(keys, k+"="+m.String())
	}
	if got := join(keys); got != `x=2,y=[true,false]` {
		t.Errorf("Members = %s", got)
	}
	y, _ := v.Lookup("y")
	var elems []string
	for i, e := range y.Elements() {
		elems = append(elems, itoa(i)+"="+e.String())
	}
	if got := join(elems); got != `0=true,1=false` {
		t.Errorf("Elements = %s", got)
	}
	for range v.Elements() {
		t.Error("Elements of an object yielded")
	}
	for range y.Members() {
		t.Error("Members of an array yielded")
	}
	for k := range v.Members() {
		if k != "x" {
			t.Errorf("early break: got %s", k)
		}
		break
	}
}

func join(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ","
		}
		out += p
	}
	return out
}

func TestZeroValue(t *testing.T) {
	var v jsonvalue.Value
	if v.Kind() != jsonvalue.KindInvalid || v.Canonical() != "" || v.String() != "" || v.Len() != 0 {
		t.Errorf("zero Value: kind %v canonical %q len %d", v.Kind(), v.Canonical(), v.Len())
	}
	if v.Bool() || v.Float() != 0 || v.Text() != "" {
		t.Error("zero Value accessors returned non-zero results")
	}
	if _, ok := v.Lookup("a"); ok {
		t.Error("zero Value Lookup found something")
	}
	if got := string(v.AppendCanonical([]byte("x"))); got != "x" {
		t.Errorf("AppendCanonical appended %q", got)
	}
}

func TestIndexPanics(t *testing.T) {
	tests := []struct {
		name string
		call func(jsonvalue.Value)
		text string
	}{
		{"Index of object", func(v jsonvalue.Value) { v.Index(0) }, `{"a":1}`},
		{"Index out of range", func(v jsonvalue.Value) { v.Index(1) }, `[1]`},
		{"Member of array", func(v jsonvalue.Value) { v.Member(0) }, `[1]`},
		{"Member out of range", func(v jsonvalue.Value) { v.Member(-1) }, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tt.call(mustParse(t, tt.text))
		})
	}
}

// TestImmutability checks that nothing handed out aliases a Value's storage.
func TestImmutability(t *testing.T) {
	v := mustParse(t, `{"a":[1,2],"b":{"c":"d"}}`)
	m := v.Member(0)
	m.Key = "changed"
	m.Value = mustParse(t, `null`)
	buf := v.AppendCanonical(make([]byte, 0, 64))
	buf[2] = 'X'
	if got := v.Canonical(); got != `{"a":[1,2],"b":{"c":"d"}}` {
		t.Errorf("value changed: %s", got)
	}
}
