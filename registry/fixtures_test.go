package registry_test

import (
	"context"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

func echoHandler(_ context.Context, _ *registry.Call, args textArgs) (string, error) {
	return args.Text, nil
}

func stringHandler(_ context.Context, _ *registry.Call, s string) (string, error) {
	return s, nil
}

func noopRaw(context.Context, *registry.Call, registry.Arguments) (any, error) {
	return "ok", nil
}

func renderValue(_ registry.Arguments, v jsonvalue.Value) ([]presentation.ContentBlock, error) {
	return []presentation.ContentBlock{presentation.Text(v.Canonical())}, nil
}
