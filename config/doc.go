// Package config reads dsh-acp's config file (TOML): the model servers
// (providers), the models the editor's picker offers with their context
// windows, prices and reasoning efforts, and the default model and
// permission preset. It also keeps the API keys `dsh-acp login` stores.
//
// A program loads the file once at start and stops on any error, each of
// which names the file, the line and the key:
//
//	path, _ := config.DefaultPath(os.Getenv)
//	f, err := config.LoadOrDefault(path) // config.Load(path) for a file the user named
//	if err != nil {
//		log.Fatal(err) // config.toml:12: models.qwen.context_window: must be a positive number of tokens, not -1
//	}
//	m, _ := f.Model("deepseek-v4-pro")
//	p, _ := f.Provider(m.Provider)
//	cpath, _ := config.CredentialsPath(os.Getenv)
//	creds := config.OpenCredentials(cpath)
//	key, source, err := f.APIKey(m.Provider, os.Getenv, creds)
//	var missing *config.MissingKeyError
//	if errors.As(err, &missing) {
//		// ask the user to sign in: dsh-acp login --provider deepseek
//	}
//	// ... stream from p.BaseURL with m.ID and key ...
//	cost := m.Price.Cost(usage.PromptTokens, usage.CachedPromptTokens, usage.CompletionTokens)
//
// A File always holds the built-in providers (deepseek and openai) and
// models (deepseek-v4-flash, deepseek-v4-pro and gpt-4.1); the file adds
// its own and overrides the built-ins field by field. The format, with
// every key, is in testdata/example.toml.
package config
