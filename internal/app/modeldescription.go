package app

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/config"
)

// modelDescription is what the model picker says of m beside its name:
// whether it takes images and, when known, its context window
// ("takes images · 1M-token context", "text only").
func modelDescription(m config.Model) string {
	parts := []string{"text only"}
	if m.Images {
		parts[0] = "takes images"
	}
	if m.ContextWindow > 0 {
		parts = append(parts, tokenCount(m.ContextWindow)+"-token context")
	}
	return strings.Join(parts, " · ")
}

// tokenCount writes n the way model sizes are spoken of: 1M, 1.05M,
// 128K, 900.
func tokenCount(n int64) string {
	switch {
	case n >= 1_000_000:
		return trimmed(float64(n)/1_000_000) + "M"
	case n >= 1_000:
		return trimmed(float64(n)/1_000) + "K"
	default:
		return fmt.Sprint(n)
	}
}

// trimmed writes f with at most two decimals and no trailing zeros.
func trimmed(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}
