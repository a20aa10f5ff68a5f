package llm

import (
	"errors"
	"log/slog"
	"regexp"
	"strings"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// Redacted replaces each secret a [Redactor] removes.
const Redacted = secrets.Marker

// MinSecretLen is the shortest configured secret a [Redactor] hides by
// value. Shorter "keys" (the "x" a local server that needs no key is
// given) are not secrets, and hiding them everywhere would garble text.
const MinSecretLen = 8

var (
	// bearerToken is an HTTP bearer credential: the scheme word and a
	// token68 of at least 8 characters after it (so "bearer of news" is
	// prose, not a credential).
	bearerToken = regexp.MustCompile(`(?i)\b(bearer)(\s+)[A-Za-z0-9\-._~+/]{8,}=*`)
	// skKey is an sk-style API key (DeepSeek, OpenAI and others): "sk-"
	// starting a word, then at least 16 key characters.
	skKey = regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{16,}`)
)

// Redactor removes secrets from text before anyone shows or logs it: the
// configured secrets (the API key) wherever they appear, every bearer
// token ("Bearer <token>" becomes "Bearer [REDACTED]") and every sk-style
// key ("sk-" and 16 or more key characters). The zero value hides bearer
// tokens and sk-style keys only. A Redactor is immutable and safe for
// concurrent use.
//
// Every error the llm package returns has already been through the
// Redactor of its Config; the command and the bridge use the same one for
// their logs:
//
//	red := cfg.Redactor()
//	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{ReplaceAttr: red.ReplaceAttr}))
//	fmt.Fprintln(os.Stderr, red.String(err.Error()))
type Redactor struct {
	// known hides the configured secrets by value (the one literal
	// redactor the editor, model and disk sides use too).
	known *secrets.Redactor
}

// NewRedactor returns a Redactor hiding values (trimmed of white space;
// those shorter than MinSecretLen are ignored) in addition to bearer
// tokens and sk-style keys.
func NewRedactor(values ...string) Redactor {
	var keep []string
	for _, s := range values {
		if s = strings.TrimSpace(s); len(s) >= MinSecretLen {
			keep = append(keep, s)
		}
	}
	return Redactor{known: secrets.NewRedactor(keep...)}
}

// Redactor returns the Redactor for c: it hides c.APIKey, bearer tokens
// and sk-style keys.
func (c Config) Redactor() Redactor { return NewRedactor(c.APIKey) }

// String returns s with every secret replaced by Redacted.
func (r Redactor) String(s string) string {
	s = r.known.String(s)
	s = bearerToken.ReplaceAllString(s, "${1}${2}"+Redacted)
	return skKey.ReplaceAllString(s, Redacted)
}

// Error returns err with its text redacted: err itself when its text
// holds no secret, otherwise an error whose Error() is the redacted text
// and for which errors.Is and errors.As still find what err's chain holds
// (errors.Unwrap returns nil, so printing a chain link by link cannot
// reach the unredacted text). Error(nil) is nil.
func (r Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	clean := r.String(text)
	if clean == text {
		return err
	}
	return &redactedError{text: clean, err: err}
}

// ReplaceAttr redacts string and error attribute values, for
// slog.HandlerOptions.ReplaceAttr. The message is an attribute too, so
// it is redacted as well.
func (r Redactor) ReplaceAttr(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(r.String(a.Value.String()))
	case slog.KindAny:
		if err, ok := a.Value.Any().(error); ok && err != nil {
			a.Value = slog.StringValue(r.String(err.Error()))
		}
	}
	return a
}

// redactedError is an error whose text has been redacted; it answers
// errors.Is and errors.As for the error it stands for.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }

func (e *redactedError) Is(target error) bool { return errors.Is(e.err, target) }

func (e *redactedError) As(target any) bool { return errors.As(e.err, target) }
