package config

import (
	"math"
	"testing"
)

func TestPriceCost(t *testing.T) {
	gpt := Price{Input: 2, CachedInput: 0.5, Output: 8, Currency: "USD"}
	tests := []struct {
		name                       string
		price                      Price
		prompt, cached, completion int64
		want                       float64
	}{
		// 600,000 missed × $2/M = $1.20; 400,000 cached × $0.50/M = $0.20;
		// 250,000 out × $8/M = $2.00; in all $3.40.
		{"cache hits at the cached price", gpt, 1_000_000, 400_000, 250_000, 3.40},
		// 20,000 missed × 1.32/M = 0.0264; 100,000 cached × 0.044/M = 0.0044;
		// 5,000 out × 3.96/M = 0.0198; in all 0.0506.
		{"DeepSeek V4 Pro at peak", Price{Input: 1.32, CachedInput: 0.044, Output: 3.96}, 120_000, 100_000, 5_000, 0.0506},
		// 1,000 × $2/M + 10 × $8/M = 0.002 + 0.00008.
		{"no cache hits", gpt, 1_000, 0, 10, 0.00208},
		// A price without its own cache price has CachedInput = Input
		// (Load sees to that): 1,000 × 3/M + 0 = 0.003.
		{"no cache price", Price{Input: 3, CachedInput: 3, Output: 15}, 1_000, 900, 0, 0.003},
		// More cached than prompted counts as all cached: 100 × 0.5/M.
		{"cached clamped to the prompt", gpt, 100, 500, 0, 0.00005},
		{"negative counts count as none", gpt, -5, -1, -1, 0},
		{"free", Price{}, 1_000_000, 10, 1_000_000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.price.Cost(tt.prompt, tt.cached, tt.completion); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Cost(%d, %d, %d) = %.10f, want %.10f", tt.prompt, tt.cached, tt.completion, got, tt.want)
			}
		})
	}
}

func BenchmarkPriceCost(b *testing.B) {
	p := Price{Input: 1.32, CachedInput: 0.044, Output: 3.96}
	var sum float64
	for b.Loop() {
		sum += p.Cost(120_000, 100_000, 5_000)
	}
	_ = sum
}
