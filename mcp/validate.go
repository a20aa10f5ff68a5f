package mcp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/dsh-acp/dsh-acp/registry"
)

// argsSchema checks a call's arguments against a server tool's input
// schema before the call goes to the server, so the model gets an
// INVALID_ARGS result it can correct instead of whatever the server makes
// of them.
type argsSchema struct {
	schema *jsonschema.Schema
}

// compileArgsSchema compiles params, a tool's input schema; a schema
// without "$schema" is read as draft 2020-12, as MCP says. References
// outside the schema are not followed: a schema that needs one fails to
// compile.
func compileArgsSchema(name, params string) (*argsSchema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(params))
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	url := "urn:dsh-acp:mcp:" + name
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", name, err)
	}
	return &argsSchema{schema: s}, nil
}

// check returns the INVALID_ARGS error listing how args break the schema,
// or nil when they fit.
func (a *argsSchema) check(args registry.Arguments) error {
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(args.JSON()))
	if err != nil {
		return registry.ArgsError([]string{"arguments are not JSON: " + err.Error()})
	}
	err = a.schema.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	var violations []string
	lines := strings.Split(ve.Error(), "\n")
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")); l != "" {
			violations = append(violations, l)
		}
	}
	if len(violations) == 0 {
		violations = []string{lines[0]}
	}
	return registry.ArgsError(violations)
}
