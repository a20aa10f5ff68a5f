package config

import (
	"errors"
	"fmt"
	"net/url"
)

// checkBaseURL accepts an absolute http or https URL with a host.
func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("not a URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("want an http:// or https:// URL with a host, not %q", s)
	}
	return nil
}

// envNames reads api_key_env: a variable name or a list of them.
func envNames(v any) ([]string, error) {
	var names []string
	switch v := v.(type) {
	case string:
		names = []string{v}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, errors.New("want a variable name or a list of them")
			}
			names = append(names, s)
		}
	default:
		return nil, errors.New("want a variable name or a list of them")
	}
	for _, name := range names {
		if !isEnvName(name) {
			return nil, fmt.Errorf("%q is not an environment variable name (letters, digits and _, not starting with a digit)", name)
		}
	}
	return names, nil
}

func isEnvName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// checkWord accepts a lower-case word, the form of a reasoning effort.
func checkWord(s string) error {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return fmt.Errorf("%q is not a lower-case word such as high", s)
		}
	}
	if s == "" {
		return errors.New("a reasoning effort must not be empty")
	}
	return nil
}

// isCurrencyCode reports whether s has the form of an ISO 4217 code:
// three upper-case letters.
func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}
