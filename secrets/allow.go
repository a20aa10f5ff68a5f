package secrets

import (
	"fmt"
	"path"
	"strings"
)

// ParseAllow reads an allow list for secret-looking variables, as
// DSH_SHELL_ENV_ALLOW spells it: comma-separated variable names or
// path.Match patterns ("GITHUB_TOKEN,AWS_*"), matched case-insensitively.
// Blank entries are skipped. It fails on an entry that is not a valid
// pattern or holds '='. The result is upper-cased, ready for Withheld.
func ParseAllow(list string) ([]string, error) {
	var patterns []string
	for entry := range strings.SplitSeq(list, ",") {
		if entry = strings.TrimSpace(entry); entry != "" {
			patterns = append(patterns, entry)
		}
	}
	allow, err := CheckAllow(patterns)
	if err != nil {
		return nil, fmt.Errorf("DSH_SHELL_ENV_ALLOW: %w", err)
	}
	return allow, nil
}

// CheckAllow returns the allow patterns upper-cased, ready for Withheld,
// or an error naming the first that is not a valid path.Match pattern or
// holds '='.
func CheckAllow(patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		return nil, nil
	}
	out := make([]string, len(patterns))
	for i, p := range patterns {
		out[i] = strings.ToUpper(p)
		if strings.Contains(out[i], "=") {
			return nil, fmt.Errorf("%q cannot be a variable name (it holds '='): list names or patterns such as GITHUB_TOKEN or AWS_*", out[i])
		}
		if _, err := path.Match(out[i], ""); err != nil {
			return nil, fmt.Errorf("%q is not a valid pattern (%w): use names, '*', '?' and [a-z] classes", out[i], err)
		}
	}
	return out, nil
}
