package acp

import (
	"errors"
	"fmt"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

func TestClientErrorsKeepTheirDetails(t *testing.T) {
	rpc := func(msg, data string) error {
		e := jsonrpc2.NewError(jsonrpc2.InternalError, msg)
		e.Data = jsonrpc2.RawMessage(data)
		return fmt.Errorf("call: %w", e)
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"acpx's refused write", rpc("Internal error", `{"details":"Permission denied for fs/write_text_file"}`),
			"Internal error: Permission denied for fs/write_text_file"},
		{"data a string", rpc("Internal error", `"disk full"`), "Internal error: disk full"},
		{"data with a message", rpc("Internal error", `{"message":"no such buffer"}`), "Internal error: no such buffer"},
		{"data that says nothing new", rpc("Resource not found", `{"message":"Resource not found"}`), "call: Resource not found"},
		{"no data", rpc("Internal error", ``), "call: Internal error"},
		{"not a JSON-RPC error", errors.New("broken pipe"), "broken pipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := withDetails(tt.err)
			if got.Error() != tt.want {
				t.Errorf("error = %q, want %q", got.Error(), tt.want)
			}
			var e *jsonrpc2.Error
			if errors.As(tt.err, &e) && (!errors.As(got, &e) || e.Code != jsonrpc2.InternalError) {
				t.Errorf("the JSON-RPC error is not reachable from %v", got)
			}
		})
	}
}
