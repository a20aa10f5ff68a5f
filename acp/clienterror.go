package acp

import (
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"
)

// clientError is an error a client answered a request with, read with
// the details it gave in its data (acpx answers a refused write "Internal
// error" with data.details "Permission denied for fs/write_text_file"),
// so whoever reads it learns what happened. It unwraps to the
// *jsonrpc2.Error, code and all.
type clientError struct {
	rpc     *jsonrpc2.Error
	details string
}

func (e *clientError) Error() string { return e.rpc.Message + ": " + e.details }

func (e *clientError) Unwrap() error { return e.rpc }

// withDetails returns err, with the details of its data in its text when
// it is a JSON-RPC error that carries some.
func withDetails(err error) error {
	var rpc *jsonrpc2.Error
	if !errors.As(err, &rpc) || len(rpc.Data) == 0 {
		return err
	}
	details := dataDetails(json.RawMessage(rpc.Data))
	if details == "" || details == rpc.Message {
		return err
	}
	return &clientError{rpc: rpc, details: details}
}

// dataDetails is what an error's data says in words: the data itself when
// it is a string, else its "details" or "message" member.
func dataDetails(data json.RawMessage) string {
	var text string
	if json.Unmarshal(data, &text) == nil {
		return text
	}
	var obj struct {
		Details string `json:"details"`
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &obj) != nil {
		return ""
	}
	if obj.Details != "" {
		return obj.Details
	}
	return obj.Message
}
