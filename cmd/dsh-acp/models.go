package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/dsh-acp/dsh-acp/bridge"
	configfile "github.com/dsh-acp/dsh-acp/config"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/subagent"
)

// newCatalog builds the models sessions may use from the config file, the
// environment and the flags.
func newCatalog(cfg config) (*app.Catalog, error) {
	cc := app.CatalogConfig{
		File: cfg.settings, DefaultModel: cfg.modelName(), Base: cfg.llm,
		BaseURLGiven: cfg.baseURLGiven, Getenv: cfg.env.get, Credentials: credentials(cfg),
	}
	if cfg.llm.ModelScript != "" {
		script, err := llm.NewProvider(cfg.llm)
		if err != nil {
			return nil, err
		}
		cc.Script = script
	}
	return app.NewCatalog(cc)
}

// credentials is the file `dsh-acp login` stores keys in; nil when there
// is no config directory.
func credentials(cfg config) *configfile.Credentials {
	creds, err := cfg.credentials()
	if err != nil {
		return nil
	}
	return creds
}

// auth is how an editor signs the user in: `dsh-acp login` in a terminal,
// and logout forgetting every stored key.
func auth(cfg config, catalog *app.Catalog) bridge.Auth {
	a := bridge.Auth{Check: catalog.Check, LoginArgs: []string{"login"}}
	if exe, err := os.Executable(); err == nil {
		a.Command = exe
	}
	if creds := credentials(cfg); creds != nil {
		a.Logout = func() error {
			_, err := creds.DeleteAll()
			return err
		}
	}
	return a
}

// openStore opens the session store under the state dir. A store that
// cannot be opened is logged, and sessions then live in memory only: the
// editor can still work, it just cannot list or load them.
func openStore(cfg config, logger *slog.Logger, red *secrets.Redactor) *session.Store {
	if cfg.stateDir == "" {
		logger.Info("sessions are kept in memory only: there is no state directory (no home directory; set DSH_STATE_DIR)")
		return nil
	}
	store, err := session.OpenStore(cfg.stateDir, session.StoreOptions{Redactor: red, Logger: logger})
	if err != nil {
		logger.Error("sessions will not be stored", "dir", cfg.stateDir, "err", err)
		return nil
	}
	return store
}

// heldSecrets are the secrets this process holds: the API keys it knows
// of, the values of the secret-looking variables of its environment
// (secrets.EnvValues) and those the config file gives its servers
// (configSecrets). None reaches the editor, the model, a stored session or
// a log line.
func heldSecrets(cfg config) []string {
	held := append(knownSecrets(cfg), secrets.EnvValues(os.Environ())...)
	return append(held, configSecrets(cfg.settings)...)
}

// configSecrets are the secrets the config file holds for its servers:
// the values of secret-looking env entries of MCP and language servers
// (by the rule of secrets.EnvValues), and MCP headers named Authorization
// or secret-looking, whole and without their scheme ("Bearer …").
func configSecrets(f *configfile.File) []string {
	var env, out []string
	addEnv := func(m map[string]string) {
		for k, v := range m {
			env = append(env, k+"="+v)
		}
	}
	for _, s := range f.MCPServers {
		addEnv(s.Env)
		for name, v := range s.Headers {
			if !strings.EqualFold(name, "Authorization") && !secrets.IsSecretName(name) {
				continue
			}
			for _, part := range []string{v, v[strings.IndexByte(v, ' ')+1:]} {
				if part = strings.TrimSpace(part); len(part) >= secrets.MinValueLen {
					out = append(out, part)
				}
			}
		}
	}
	for _, s := range f.LanguageServers {
		addEnv(s.Env)
	}
	return append(out, secrets.EnvValues(env)...)
}

// knownSecrets are the API keys this process knows of.
func knownSecrets(cfg config) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); len(s) >= 8 {
			out = append(out, s)
		}
	}
	add(cfg.llm.APIKey)
	creds := credentials(cfg)
	for _, name := range cfg.settings.ProviderNames() {
		p, _ := cfg.settings.Provider(name)
		for _, v := range p.APIKeyEnv {
			add(cfg.env.get(v))
		}
		if creds != nil {
			if key, ok, err := creds.Get(name); err == nil && ok {
				add(key)
			}
		}
	}
	return out
}

// userCommandDirs holds the user's own slash commands:
// $XDG_CONFIG_HOME/dsh-acp/commands, whose files must resolve inside the
// config directory (none without a config directory).
func userCommandDirs(cfg config) []app.CommandDir {
	dir, err := configfile.Dir(cfg.env.get)
	if err != nil || dir == "" {
		return nil
	}
	return []app.CommandDir{{Dir: filepath.Join(dir, "commands"), Within: dir}}
}

// userAgentDirs holds the user's own subagent types:
// $XDG_CONFIG_HOME/dsh-acp/agents, whose files must resolve inside the
// config directory (none without a config directory).
func userAgentDirs(cfg config) []subagent.Dir {
	dir, err := configfile.Dir(cfg.env.get)
	if err != nil || dir == "" {
		return nil
	}
	return []subagent.Dir{{Dir: filepath.Join(dir, "agents"), Within: dir}}
}
