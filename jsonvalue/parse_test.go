package jsonvalue_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
)

func TestParseCanonical(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"null", `null`, `null`},
		{"true", ` true `, `true`},
		{"false", "\t\r\nfalse\n", `false`},
		{"empty string", `""`, `""`},
		{"empty array", `[ ]`, `[]`},
		{"empty object", `{ }`, `{}`},
		{"whitespace removed", ` { "a" : [ 1 , 2 ] , "b" : { } } `, `{"a":[1,2],"b":{}}`},
		{"key order kept", `{"z":1,"a":2,"m":3}`, `{"z":1,"a":2,"m":3}`},
		{"duplicate last wins first position", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"duplicate nested replaced whole", `{"a":{"x":1},"a":{"y":2}}`, `{"a":{"y":2}}`},
		{"duplicate after escape decoding", `{"a":1,"\u0061":2}`, `{"a":2}`},
		{"nested", `[[[]],[{}],{"a":[null]}]`, `[[[]],[{}],{"a":[null]}]`},
		{"escapes decoded", `"\"\\\/\b\f\n\r\t"`, `"\"\\/\b\f\n\r\t"`},
		{"control escapes", `"\u0000\u001f\u007f"`, "\"\\u0000\\u001f\x7f\""},
		{"html stays literal", `"<a href='x'>&amp;</a>"`, `"<a href='x'>&amp;</a>"`},
		{"html escapes decoded", `"\u003c\u003e\u0026"`, `"<>&"`},
		{"line separators escaped", "\"\u2028\u2029\"", `"\u2028\u2029"`},
		{"non-ASCII literal", `"h\u00e9llo 世界"`, `"héllo 世界"`},
		{"surrogate pair", `"\ud83d\ude00"`, `"😀"`},
		{"lone high surrogate", `"\ud800"`, `"�"`},
		{"lone low surrogate", `"\udc00x"`, `"�x"`},
		{"high surrogate then BMP escape", `"\ud800\u0041"`, `"�A"`},
		{"two high surrogates", `"\ud800\ud800\udc00"`, `"�𐀀"`},
		{"invalid UTF-8 replaced", "\"a\xffb\xc3\"", `"a�b�"`},
		{"integer", `42`, `42`},
		{"negative", `-42`, `-42`},
		{"zero", `0`, `0`},
		{"zero fraction", `0.0`, `0`},
		{"zero exponent", `0e10`, `0`},
		{"one point zero", `1.0`, `1`},
		{"exponent", `1e2`, `100`},
		{"capital exponent", `1E+2`, `100`},
		{"1e21 exponent form", `1e21`, `1e+21`},
		{"below 1e21 plain", `123456789012345678901`, `123456789012345680000`},
		{"small exponent form", `0.0000001`, `1e-7`},
		{"1e-6 plain", `0.000001`, `0.000001`},
		{"fraction", `-1.5`, `-1.5`},
		{"shortest round trip", `0.1000000000000000055511151231257827`, `0.1`},
		{"max float", `1.7976931348623157e308`, `1.7976931348623157e+308`},
		{"smallest denormal", `5e-324`, `5e-324`},
		{"positive underflow is zero", `1e-400`, `0`},
		{"big integer rounds", `9007199254740993`, `9007199254740992`},
		{"long integer", `12345678901234567890`, `12345678901234567000`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonvalue.Canonicalize(tt.in)
			if err != nil {
				t.Fatalf("Canonicalize(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Canonicalize(%q) = %s, want %s", tt.in, got, tt.want)
			}
			again, err := jsonvalue.Canonicalize(got)
			if err != nil || again != got {
				t.Errorf("canonical text is not a fixed point: %q, %v", again, err)
			}
		})
	}
}

// TestNumbersMatchEncodingJSON checks number formatting against
// encoding/json's own float64 formatting.
func TestNumbersMatchEncodingJSON(t *testing.T) {
	for _, in := range []string{
		"0", "1", "-1", "0.5", "1e20", "1e21", "1e-6", "1e-7", "123e-9", "1.5e300",
		"-2.5e-300", "4.9e-324", "100000000000000000000", "0.1", "0.2", "0.30000000000000004",
		"3.141592653589793", "6.02214076e23", "-9.999999999999999e20", "9.999999999999999e-7",
	} {
		var f float64
		if err := json.Unmarshal([]byte(in), &f); err != nil {
			t.Fatalf("json.Unmarshal(%s): %v", in, err)
		}
		want, _ := json.Marshal(f)
		got, err := jsonvalue.Canonicalize(in)
		if err != nil || got != string(want) {
			t.Errorf("Canonicalize(%s) = %s, %v; encoding/json gives %s", in, got, err, want)
		}
	}
}

func TestParseNotLossless(t *testing.T) {
	tests := []struct {
		name, in, number string
	}{
		{"negative zero", `-0`, "-0"},
		{"negative zero fraction", `-0.0`, "-0.0"},
		{"negative zero exponent", `-0e3`, "-0e3"},
		{"negative underflow", `-1e-400`, "-1e-400"},
		{"overflow", `1e400`, "1e400"},
		{"negative overflow", `-1e400`, "-1e400"},
		{"just above max float", `1.7976931348623159e308`, "1.7976931348623159e308"},
		{"nested negative zero", `{"a":[1,{"b":-0}]}`, "-0"},
		{"negative zero in enum", `{"type":"number","enum":[1,-0]}`, "-0"},
		{"long number truncated", "1" + strings.Repeat("0", 400), "1" + strings.Repeat("0", 39) + "..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := jsonvalue.Parse(tt.in)
			if !errors.Is(err, jsonvalue.ErrNotLossless) {
				t.Fatalf("Parse(%q) error = %v, want ErrNotLossless", tt.in, err)
			}
			if !strings.Contains(err.Error(), "number "+tt.number+" at offset") {
				t.Errorf("error %q does not name the number %s", err, tt.number)
			}
			var syntax *jsonvalue.SyntaxError
			if errors.As(err, &syntax) {
				t.Errorf("lossless error is also a SyntaxError: %v", err)
			}
		})
	}
}

func TestParseSyntaxError(t *testing.T) {
	tests := []struct {
		name, in string
		offset   int
		msg      string
	}{
		{"empty", ``, 0, "unexpected end of JSON input"},
		{"only space", `   `, 3, "unexpected end of JSON input"},
		{"two values", `1 2`, 2, "invalid character '2' after top-level value"},
		{"trailing comma array", `[1,]`, 3, "invalid character ']' looking for beginning of value"},
		{"trailing comma object", `{"a":1,}`, 7, "invalid character '}' looking for beginning of object key string"},
		{"unquoted key", `{a:1}`, 1, "invalid character 'a' looking for beginning of object key string"},
		{"missing colon", `{"a" 1}`, 5, "invalid character '1' after object key"},
		{"missing comma", `{"a":1 "b":2}`, 7, `invalid character '"' after object key:value pair`},
		{"array missing comma", `[1 2]`, 3, "invalid character '2' after array element"},
		{"unclosed array", `[1`, 2, "unexpected end of JSON input"},
		{"unclosed object", `{"a":1`, 6, "unexpected end of JSON input"},
		{"unclosed string", `"abc`, 4, "unexpected end of JSON input"},
		{"unclosed string after escape", `"a\n`, 4, "unexpected end of JSON input"},
		{"raw newline in string", "\"a\nb\"", 2, `invalid character '\n' in string literal`},
		{"raw tab in string after escape", "\"\\n\t\"", 3, `invalid character '\t' in string literal`},
		{"bad escape", `"\x"`, 2, "invalid character 'x' in string escape code"},
		{"short unicode escape", `"\u12"`, 5, `invalid character '"' in \u hexadecimal character escape`},
		{"bad unicode escape", `"\u12g4"`, 5, `invalid character 'g' in \u hexadecimal character escape`},
		{"leading zero", `01`, 1, "invalid character '1' after top-level value"},
		{"leading plus", `+1`, 0, "invalid character '+' looking for beginning of value"},
		{"bare minus", `-`, 1, "unexpected end of JSON input"},
		{"minus letter", `-a`, 1, "invalid character 'a' in numeric literal"},
		{"dot without digits", `1.`, 2, "unexpected end of JSON input"},
		{"dot then letter", `1.e3`, 2, "invalid character 'e' after decimal point in numeric literal"},
		{"leading dot", `.5`, 0, "invalid character '.' looking for beginning of value"},
		{"exponent without digits", `1e+`, 3, "unexpected end of JSON input"},
		{"NaN", `NaN`, 0, "invalid character 'N' looking for beginning of value"},
		{"Infinity", `-Infinity`, 1, "invalid character 'I' in numeric literal"},
		{"bad literal", `nul`, 3, "unexpected end of JSON input"},
		{"misspelt literal", `tru3`, 3, "invalid character '3' in literal true"},
		{"single quotes", `'a'`, 0, `invalid character '\'' looking for beginning of value`},
		{"invalid UTF-8 outside string", "\xff", 0, "invalid character byte 0xff looking for beginning of value"},
		{"non-ASCII outside string", "é", 0, "invalid character 'é' looking for beginning of value"},
		{"control outside string", "\x01", 0, `invalid character '\x01' looking for beginning of value`},
		{"byte order mark", "\ufeff1", 0, `invalid character '\ufeff' looking for beginning of value`},
		{"too deep", strings.Repeat("[", 10001), 10000, "exceeded max depth 10000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := jsonvalue.Parse(tt.in)
			var syntax *jsonvalue.SyntaxError
			if !errors.As(err, &syntax) {
				t.Fatalf("Parse(%q) error = %v, want *SyntaxError", tt.in, err)
			}
			want := "jsonvalue: " + tt.msg + " at offset "
			if syntax.Offset != tt.offset || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Parse(%q) = %q (offset %d), want %q (offset %d)", tt.in, err, syntax.Offset, want, tt.offset)
			}
			if errors.Is(err, jsonvalue.ErrNotLossless) {
				t.Errorf("syntax error wraps ErrNotLossless: %v", err)
			}
			if json.Valid([]byte(tt.in)) {
				t.Errorf("encoding/json accepts %q", tt.in)
			}
		})
	}
}

func TestParseDepthLimit(t *testing.T) {
	const depth = 10000
	text := strings.Repeat(`[`, depth) + strings.Repeat(`]`, depth)
	v, err := jsonvalue.Parse(text)
	if err != nil {
		t.Fatalf("depth %d: %v", depth, err)
	}
	if got := v.Canonical(); got != text {
		t.Errorf("deep array canonical text differs")
	}
	objects := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat(`}`, depth)
	if _, err := jsonvalue.Parse(objects); err != nil {
		t.Fatalf("depth %d objects: %v", depth, err)
	}
	if _, err := jsonvalue.Parse(`{"a":` + objects + `}`); err == nil {
		t.Fatalf("depth %d objects accepted", depth+1)
	}
}

// TestParseWideObject checks that duplicate detection stays fast and correct
// on objects past the index threshold.
func TestParseWideObject(t *testing.T) {
	var b strings.Builder
	const n = 20000
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(itoa(i))
		b.WriteString(`":`)
		b.WriteString(itoa(i))
	}
	b.WriteString(`,"k0":"last"}`)
	v, err := jsonvalue.Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != n {
		t.Fatalf("Len = %d, want %d", v.Len(), n)
	}
	if m := v.Member(0); m.Key != "k0" || m.Value.Text() != "last" {
		t.Errorf("Member(0) = %v, want k0: last", m)
	}
	if got, ok := v.Lookup("kxxxxx19997"); !ok || got.Float() != 19997 {
		t.Errorf("Lookup(kxxxxx19997) = %v, %v", got, ok)
	}
	if _, ok := v.Lookup("nope"); ok {
		t.Errorf("Lookup(nope) found a member")
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
