package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	configfile "github.com/dsh-acp/dsh-acp/config"
)

// account runs `dsh-acp login` and `dsh-acp logout` and returns the exit
// status: 0, or 1 with the reason on stderr. An editor's terminal sign-in
// runs `dsh-acp login`.
func account(ctx context.Context, cfg config, std streams) int {
	var err error
	switch cfg.command {
	case "login":
		err = login(ctx, cfg, std)
	case "logout":
		err = logout(cfg, std)
	default:
		err = fmt.Errorf("%q is not login or logout", cfg.command)
	}
	if err != nil {
		fmt.Fprintf(std.err, "dsh-acp %s: %v\n", cfg.command, err)
		return 1
	}
	return 0
}

// login asks for the API key of the chosen provider and stores it in the
// credentials file. In a terminal the key is typed with the input hidden;
// otherwise one line of stdin is the key, so that it can be scripted.
// The key is never printed.
func login(ctx context.Context, cfg config, std streams) error {
	provider, err := cfg.accountProvider()
	if err != nil {
		return err
	}
	p, ok := cfg.settings.Provider(provider)
	if !ok {
		return fmt.Errorf("unknown provider %q (known: %s)", provider, strings.Join(cfg.settings.ProviderNames(), ", "))
	}
	creds, err := cfg.credentials()
	if err != nil {
		return err
	}
	key, err := readAPIKey(ctx, provider, std)
	if err != nil {
		return err
	}
	if err := creds.Set(provider, key); err != nil {
		return err
	}
	fmt.Fprintf(std.out, "Stored the API key for %s in %s.\n", provider, creds.Path())
	if name, set := setVariable(cfg.env, p.APIKeyEnv); set {
		fmt.Fprintf(std.out, "%s is set, and a key in the environment wins over the stored one.\n", name)
	}
	return nil
}

// logout removes the chosen provider's stored key, or every key.
func logout(cfg config, std streams) error {
	creds, err := cfg.credentials()
	if err != nil {
		return err
	}
	if cfg.allProviders {
		removed, err := creds.DeleteAll()
		if err != nil {
			return err
		}
		if len(removed) == 0 {
			fmt.Fprintf(std.out, "No API key is stored in %s.\n", creds.Path())
		} else {
			fmt.Fprintf(std.out, "Removed the API keys for %s from %s.\n", strings.Join(removed, ", "), creds.Path())
		}
		return nil
	}
	provider, err := cfg.accountProvider()
	if err != nil {
		return err
	}
	removed, err := creds.Delete(provider)
	if err != nil {
		return err
	}
	if removed {
		fmt.Fprintf(std.out, "Removed the API key for %s from %s.\n", provider, creds.Path())
	} else {
		fmt.Fprintf(std.out, "No API key for %s is stored in %s.\n", provider, creds.Path())
	}
	if p, ok := cfg.settings.Provider(provider); ok {
		if name, set := setVariable(cfg.env, p.APIKeyEnv); set {
			fmt.Fprintf(std.out, "%s is still set in the environment, and dsh-acp uses it.\n", name)
		}
	}
	return nil
}

// accountProvider is --provider, else the provider of the model in use.
func (c config) accountProvider() (string, error) {
	if c.provider != "" {
		return c.provider, nil
	}
	model := c.modelName()
	m, ok := c.settings.Model(model)
	if !ok {
		return "", fmt.Errorf("the model %q is not in the config file, so its provider is unknown: name one with --provider (%s)",
			model, strings.Join(c.settings.ProviderNames(), ", "))
	}
	return m.Provider, nil
}

// credentials is the credentials file in the configuration directory.
func (c config) credentials() (*configfile.Credentials, error) {
	path, err := configfile.CredentialsPath(c.env.get)
	if err != nil {
		return nil, err
	}
	return configfile.OpenCredentials(path), nil
}

// setVariable is the first of names set (not blank) in env.
func setVariable(env environ, names []string) (string, bool) {
	for _, name := range names {
		if strings.TrimSpace(env.get(name)) != "" {
			return name, true
		}
	}
	return "", false
}

// readAPIKey reads the key: hidden from a terminal, else one line of
// stdin. It refuses an empty key, or one with white space inside.
func readAPIKey(ctx context.Context, provider string, std streams) (string, error) {
	var key string
	if f, ok := std.in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		k, err := readHidden(ctx, f, std.err, fmt.Sprintf("API key for %s (input hidden): ", provider))
		if err != nil {
			return "", err
		}
		key = k
	} else {
		line, err := bufio.NewReader(std.in).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("reading the API key: %w", err)
		}
		key = line
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return "", errors.New("no API key given: nothing was stored")
	}
	if err := configfile.CheckAPIKey(key); err != nil {
		return "", fmt.Errorf("%w: nothing was stored", err)
	}
	return key, nil
}

// readHidden shows prompt on out and reads a line from the terminal tty
// with nothing echoed. The terminal is put in raw mode before the prompt
// appears, so nothing typed after it can echo, and restored before
// returning. Ctrl-C or Ctrl-D cancels. When ctx ends first, it returns at
// once; the read goes on until the process, which is exiting, ends.
func readHidden(ctx context.Context, tty *os.File, out io.Writer, prompt string) (string, error) {
	fd := int(tty.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return "", fmt.Errorf("hiding the input: %w", err)
	}
	defer term.Restore(fd, state)
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{tty, out}, "")
	type read struct {
		line string
		err  error
	}
	done := make(chan read, 1)
	go func() {
		line, err := t.ReadPassword(prompt)
		done <- read{line, err}
	}()
	select {
	case r := <-done:
		if errors.Is(r.err, io.EOF) {
			return "", errors.New("cancelled: nothing was stored")
		}
		if r.err != nil {
			return "", fmt.Errorf("reading the API key: %w", r.err)
		}
		return r.line, nil
	case <-ctx.Done():
		fmt.Fprint(out, "\r\n")
		return "", fmt.Errorf("cancelled: %w", ctx.Err())
	}
}
