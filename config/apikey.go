package config

import (
	"fmt"
	"strings"
)

// MissingKeyError is APIKey's answer for a provider that needs a key and
// has none: the ACP auth-required case.
type MissingKeyError struct {
	// Provider is the provider's name.
	Provider string
	// EnvVars are the variables that would give the key.
	EnvVars []string
}

// Error says what to set or run.
func (e *MissingKeyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no API key for %s: ", e.Provider)
	if len(e.EnvVars) > 0 {
		fmt.Fprintf(&b, "set %s, or ", strings.Join(e.EnvVars, " or "))
	}
	fmt.Fprintf(&b, "run `dsh-acp login --provider %s`", e.Provider)
	return b.String()
}

// APIKey returns the key to send to provider, and where it came from
// ("environment variable DSH_API_KEY", "credentials file <path>"). The
// provider's environment variables win, in order (a value is trimmed of
// surrounding white space; an empty one does not count); then the key
// stored in creds (nil: none). A keyless provider without a key gets
// ("", "", nil); any other provider without one gets a *MissingKeyError.
// An unknown provider, or a credentials file that cannot be read, is an
// error too. getenv is typically os.Getenv.
func (f *File) APIKey(provider string, getenv func(string) string, creds *Credentials) (key, source string, err error) {
	p, ok := f.Providers[provider]
	if !ok {
		return "", "", fmt.Errorf("unknown provider %q (known: %s)", provider, strings.Join(f.ProviderNames(), ", "))
	}
	for _, name := range p.APIKeyEnv {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v, "environment variable " + name, nil
		}
	}
	if creds != nil {
		key, ok, err := creds.Get(provider)
		if err != nil {
			return "", "", err
		}
		if ok {
			return key, "credentials file " + creds.Path(), nil
		}
	}
	if p.Keyless {
		return "", "", nil
	}
	return "", "", &MissingKeyError{Provider: provider, EnvVars: append([]string(nil), p.APIKeyEnv...)}
}
