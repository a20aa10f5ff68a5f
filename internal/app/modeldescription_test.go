package app

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/config"
)

func TestModelDescription(t *testing.T) {
	tests := []struct {
		name  string
		model config.Model
		want  string
	}{
		{"text only, no window known", config.Model{}, "text only"},
		{"images and a round window", config.Model{Images: true, ContextWindow: 1_000_000}, "takes images · 1M-token context"},
		{"an odd window", config.Model{ContextWindow: 1_047_576}, "text only · 1.05M-token context"},
		{"thousands", config.Model{ContextWindow: 128_000}, "text only · 128K-token context"},
		{"small", config.Model{ContextWindow: 900}, "text only · 900-token context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := modelDescription(tt.model); got != tt.want {
				t.Errorf("modelDescription = %q, want %q", got, tt.want)
			}
		})
	}
}
