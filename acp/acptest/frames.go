package acptest

import (
	"context"
	"encoding/json"
	"fmt"

	acpsdk "github.com/coder/acp-go-sdk"
)

// Frames returns a copy of every frame the server has written so far, in
// order.
func (c *Client) Frames() []Frame {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Frame(nil), c.frames...)
}

// WaitFrame waits for a frame that match accepts and that no earlier
// WaitFrame returned, looking at the frames already received first. It
// fails when ctx ends or when the server's output ends without one.
func (c *Client) WaitFrame(ctx context.Context, match func(Frame) bool) (Frame, error) {
	for {
		c.mu.Lock()
		for i, f := range c.frames {
			if !c.taken[i] && match(f) {
				c.taken[i] = true
				c.mu.Unlock()
				return f, nil
			}
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return Frame{}, fmt.Errorf("acptest: waiting for a frame: %w", ctx.Err())
		case <-c.readDone:
			select {
			case <-changed: // frames recorded just before the end: look again
				continue
			default:
			}
			return Frame{}, fmt.Errorf("acptest: waiting for a frame: %w", ErrClosed)
		}
	}
}

// ErrorFrame matches an error response with code.
func ErrorFrame(code int64) func(Frame) bool {
	return func(f Frame) bool { return f.Error != nil && f.Error.Code == code }
}

// MethodFrame matches a request or notification of method.
func MethodFrame(method string) func(Frame) bool {
	return func(f Frame) bool { return f.Method == method }
}

// Updates decodes the params of every session/update for sessionID, in
// the order the server sent them. An update the SDK cannot decode fails
// the test.
func (c *Client) Updates(sessionID acpsdk.SessionId) []acpsdk.SessionNotification {
	var out []acpsdk.SessionNotification
	for _, f := range c.Frames() {
		if f.Method != acpsdk.ClientMethodSessionUpdate {
			continue
		}
		var n acpsdk.SessionNotification
		if err := json.Unmarshal(f.Params, &n); err != nil {
			c.t.Errorf("acptest: decoding session/update %s: %v", f.Params, err)
			continue
		}
		if n.SessionId == sessionID {
			out = append(out, n)
		}
	}
	return out
}
