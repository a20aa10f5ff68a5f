package acptest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Frame is one line the server wrote, parsed as a JSON-RPC message.
type Frame struct {
	// Raw is the line as written, without its newline.
	Raw json.RawMessage
	// ID is the raw id member: absent (nil) for notifications, "null" for
	// errors answering unreadable input.
	ID json.RawMessage
	// Method is set for requests and notifications.
	Method string
	// Params is set for requests and notifications that carry params.
	Params json.RawMessage
	// Result is set for successful responses.
	Result json.RawMessage
	// Error is set for error responses.
	Error *RPCError
	// Answers is, for a response, the method of the request it answers
	// ("" when unknown: an error to unreadable input).
	Answers string
}

// IsRequest reports whether the frame is a call from the server.
func (f Frame) IsRequest() bool { return f.Method != "" && f.ID != nil }

// IsNotification reports whether the frame is a notification.
func (f Frame) IsNotification() bool { return f.Method != "" && f.ID == nil }

// IsResponse reports whether the frame answers a request.
func (f Frame) IsResponse() bool { return f.Method == "" }

// HasNullID reports whether the frame's id is JSON null.
func (f Frame) HasNullID() bool { return bytes.Equal(bytes.TrimSpace(f.ID), []byte("null")) }

// RPCError is a JSON-RPC error object, as the server sent it. Client.Call
// returns it as its error.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error.
func (e *RPCError) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// envelope is the wire shape of any JSON-RPC message.
type envelope struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// parseFrame checks a line is one JSON-RPC 2.0 message and splits it.
func parseFrame(line []byte) (Frame, error) {
	f := Frame{Raw: append(json.RawMessage(nil), line...)}
	if !json.Valid(line) {
		return f, fmt.Errorf("not JSON: %.200q", line)
	}
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return f, fmt.Errorf("not a JSON object: %.200s", line)
	}
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		return f, fmt.Errorf(`"jsonrpc" is not "2.0": %.200s`, line)
	}
	f.ID, f.Params, f.Result = env.ID, env.Params, env.Result
	if env.ID != nil {
		if err := checkID(env.ID); err != nil {
			return f, err
		}
	}
	switch {
	case env.Method != nil:
		f.Method = *env.Method
		if f.Method == "" {
			return f, fmt.Errorf("empty method: %.200s", line)
		}
		if env.Result != nil || env.Error != nil {
			return f, fmt.Errorf("a request carries result or error: %.200s", line)
		}
	case env.ID == nil:
		return f, fmt.Errorf("a response without id: %.200s", line)
	case (env.Result == nil) == (env.Error == nil):
		return f, fmt.Errorf("a response must carry exactly one of result and error: %.200s", line)
	case env.Error != nil:
		var e RPCError
		if err := json.Unmarshal(env.Error, &e); err != nil {
			return f, fmt.Errorf("unreadable error object: %.200s", line)
		}
		f.Error = &e
	}
	return f, nil
}

// checkID accepts the JSON-RPC id forms: a string, an integer, null.
func checkID(id json.RawMessage) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(id))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("unreadable id %s", id)
	}
	switch v := v.(type) {
	case nil, string:
		return nil
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return nil
		}
	}
	return fmt.Errorf("id %s is not a string, an integer or null", id)
}

// idKey normalizes an id for lookups: its compact JSON text.
func idKey(id json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, id); err != nil {
		return string(id)
	}
	return buf.String()
}
