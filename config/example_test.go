package config_test

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/config"
)

func Example() {
	f, err := config.Parse("config.toml", []byte(`
model = "qwen"

[providers.local]
base_url = "http://localhost:11434/v1"
keyless = true

[models.qwen]
provider = "local"
id = "qwen2.5-coder:32b"
context_window = 32768
price = { input = 0.5, output = 2.0, currency = "USD" }
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := f.Model(f.DefaultModel)
	p, _ := f.Provider(m.Provider)
	fmt.Println(m.ID, "at", p.BaseURL, "in", m.ContextWindow, "tokens")
	key, _, err := f.APIKey(m.Provider, func(string) string { return "" }, nil)
	fmt.Printf("key %q, error %v\n", key, err)
	fmt.Printf("%.4f %s\n", m.Price.Cost(10_000, 0, 1_000), m.Price.Currency)

	_, err = config.Parse("config.toml", []byte("[models.qwen]\nprovider = \"local\"\n"))
	fmt.Println(err)
	// Output:
	// qwen2.5-coder:32b at http://localhost:11434/v1 in 32768 tokens
	// key "", error <nil>
	// 0.0070 USD
	// config.toml:2: models.qwen.provider: unknown provider "local" (known: deepseek, openai)
}

func ExamplePrice_Cost() {
	p := config.Price{Input: 2, CachedInput: 0.5, Output: 8, Currency: "USD"}
	// 600,000 prompt tokens missed the cache, 400,000 hit it; 250,000 out.
	fmt.Printf("%.2f %s\n", p.Cost(1_000_000, 400_000, 250_000), p.Currency)
	// Output: 3.40 USD
}
