package acptest

import (
	"encoding/json"
	"errors"
	"fmt"
)

// receive records, validates and routes one line from the server.
// terminated is false for a last line without '\n'.
func (c *Client) receive(line []byte, terminated bool) {
	if !terminated {
		c.t.Errorf("acptest: the server's last frame has no terminating newline: %.200q", line)
	}
	f, err := parseFrame(line)
	if err != nil {
		c.t.Errorf("acptest: the server wrote something that is not a JSON-RPC frame: %v", err)
		c.record(f)
		if f.ID != nil && f.Method == "" {
			c.failCall(f, err) // do not leave its Call waiting
		}
		return
	}
	switch {
	case f.IsResponse():
		c.receiveResponse(f)
	case f.IsRequest():
		c.checkMessage(f, Request, f.Method, f.Params)
		c.record(f)
		c.serveRequest(f)
	default:
		c.checkMessage(f, Notification, f.Method, f.Params)
		c.record(f)
	}
}

// receiveResponse validates a response by the method it answers and hands
// it to the Call waiting for it.
func (c *Client) receiveResponse(f Frame) {
	key := idKey(f.ID)
	c.mu.Lock()
	method, known := c.takeSent(key)
	ch := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	f.Answers = method

	switch {
	case f.Error != nil:
		c.check(f, c.schema.ValidateError(errorObject(f.Raw)))
		if !known && !f.HasNullID() {
			c.t.Errorf("acptest: the server answered id %s, which the client never sent: %s", f.ID, f.Raw)
		}
	case f.HasNullID():
		c.t.Errorf("acptest: a successful response with a null id: %s", f.Raw)
	case !known:
		c.t.Errorf("acptest: the server answered id %s, which the client never sent: %s", f.ID, f.Raw)
	case method != "":
		c.checkMessage(f, Response, method, f.Result)
	}
	c.record(f)
	if ch != nil {
		ch <- f
	}
}

// failCall answers the Call waiting for f's id with err.
func (c *Client) failCall(f Frame, err error) {
	key := idKey(f.ID)
	c.mu.Lock()
	ch := c.pending[key]
	delete(c.pending, key)
	c.takeSent(key)
	c.mu.Unlock()
	if ch != nil {
		f.Error = &RPCError{Message: "acptest: invalid frame: " + err.Error()}
		ch <- f
	}
}

// takeSent removes and returns the method of the oldest request sent with
// id key that is still unanswered. The caller holds c.mu.
func (c *Client) takeSent(key string) (method string, ok bool) {
	methods := c.sent[key]
	if len(methods) == 0 {
		return "", false
	}
	if len(methods) == 1 {
		delete(c.sent, key)
	} else {
		c.sent[key] = methods[1:]
	}
	return methods[0], true
}

// errorObject extracts the raw error member of a response line.
func errorObject(line []byte) json.RawMessage {
	var env envelope
	_ = json.Unmarshal(line, &env)
	return env.Error
}

// checkMessage validates one of the server's messages (Schema.Check),
// and reports one that uses an unstable feature the client did not
// advertise in its initialize request.
func (c *Client) checkMessage(f Frame, kind Kind, method string, payload json.RawMessage) {
	feature, err := c.schema.Check(FromAgent, kind, method, payload)
	if err != nil {
		c.check(f, err)
		return
	}
	if feature != "" && !c.advertised(feature) {
		c.t.Errorf("acptest: the server sent an unstable feature to a client that did not advertise it "+
			"(clientCapabilities.%s in its initialize request): %.300s", feature, f.Raw)
	}
}

// check reports a schema violation.
func (c *Client) check(f Frame, err error) {
	if err != nil {
		c.t.Errorf("acptest: schema violation in the server's frame %.300s:\n%v", f.Raw, err)
	}
}

// record appends a frame and wakes every waiter.
func (c *Client) record(f Frame) {
	c.mu.Lock()
	c.frames = append(c.frames, f)
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// serveRequest answers a server request on its own goroutine, so the read
// loop keeps reading (the server may cancel or send updates meanwhile).
func (c *Client) serveRequest(f Frame) {
	c.mu.Lock()
	h := c.handle[f.Method]
	c.mu.Unlock()
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		var result any
		var err error
		if h == nil {
			err = &RPCError{Code: -32601, Message: fmt.Sprintf("method not found: %q", f.Method)}
		} else {
			result, err = c.runHandler(h, f)
		}
		resp := struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result,omitempty"`
			Error   *RPCError       `json:"error,omitempty"`
		}{JSONRPC: "2.0", ID: f.ID}
		if err != nil {
			var rpcErr *RPCError
			if !errors.As(err, &rpcErr) {
				rpcErr = &RPCError{Code: -32603, Message: err.Error()}
			}
			resp.Error = rpcErr
		} else if resp.Result, err = marshal(result); err != nil {
			resp.Error = &RPCError{Code: -32603, Message: err.Error()}
		} else if len(resp.Result) == 0 {
			resp.Result = json.RawMessage("null")
		}
		_ = c.writeJSON(resp) // after Close the server is gone; nothing to tell
	}()
}

// runHandler calls a test's handler, reporting a panic as a test error.
func (c *Client) runHandler(h RequestHandler, f Frame) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			c.t.Errorf("acptest: the handler for %s panicked: %v", f.Method, v)
			err = &RPCError{Code: -32603, Message: fmt.Sprint(v)}
		}
	}()
	return h(c.ctx, f.Params)
}
