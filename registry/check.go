package registry

import (
	"fmt"
	"time"
)

// ReservedName is the tool name no registration may take or shadow.
const ReservedName = "run_code"

// maxNameLength is the longest tool name model APIs accept.
const maxNameLength = 64

// checkDefinition applies the definition-time rules every tool shares.
func checkDefinition(name string, timeout time.Duration) error {
	if err := checkName(name); err != nil {
		return err
	}
	if timeout < 0 {
		return fmt.Errorf("tool %q timeout must be a positive duration (got %s)", name, timeout)
	}
	return nil
}

// checkName accepts 1 to 64 ASCII letters, digits, '_' and '-', the names
// every model API takes.
func checkName(name string) error {
	if name == "" || len(name) > maxNameLength {
		return fmt.Errorf("tool name %q must be 1 to %d characters long", name, maxNameLength)
	}
	for _, r := range name {
		ok := r == '_' || r == '-' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
		if !ok {
			return fmt.Errorf("tool name %q may hold only letters, digits, '_' and '-'", name)
		}
	}
	return nil
}
