package acp_test

import (
	"encoding/json"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
)

func TestInitializeRequestReadsSessionCapabilities(t *testing.T) {
	tests := []struct {
		name string
		json string
		want acp.ClientSessionCapabilities
	}{
		{"none", `{"protocolVersion":1,"clientCapabilities":{}}`, acp.ClientSessionCapabilities{}},
		{"notices", `{"protocolVersion":1,"clientCapabilities":{"session":{"notices":{}}}}`, acp.ClientSessionCapabilities{Notices: true}},
		{"both", `{"protocolVersion":1,"clientCapabilities":{"session":{"notices":{},"compaction":{}}}}`, acp.ClientSessionCapabilities{Notices: true, Compaction: true}},
		{"null members advertise nothing", `{"protocolVersion":1,"clientCapabilities":{"session":{"notices":null,"compaction":true}}}`, acp.ClientSessionCapabilities{}},
		{"a session that is no object", `{"protocolVersion":1,"clientCapabilities":{"session":7}}`, acp.ClientSessionCapabilities{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var req acp.InitializeRequest
			if err := json.Unmarshal([]byte(tt.json), &req); err != nil {
				t.Fatal(err)
			}
			if req.ClientSession != tt.want || req.ProtocolVersion != 1 {
				t.Errorf("decoded %+v (version %d), want %+v", req.ClientSession, req.ProtocolVersion, tt.want)
			}
		})
	}
}

func TestInitializeRequestReadsThePlanCapability(t *testing.T) {
	tests := []struct {
		json string
		want bool
	}{
		{`{"protocolVersion":1,"clientCapabilities":{}}`, false},
		{`{"protocolVersion":1,"clientCapabilities":{"plan":{}}}`, true},
		{`{"protocolVersion":1,"clientCapabilities":{"plan":{"_meta":{"x":1}},"session":7}}`, true},
		{`{"protocolVersion":1,"clientCapabilities":{"plan":null}}`, false},
		{`{"protocolVersion":1,"clientCapabilities":{"plan":true}}`, false},
		{`{"protocolVersion":1,"clientCapabilities":{"session":{"plan":{}}}}`, false},
	}
	for _, tt := range tests {
		var req acp.InitializeRequest
		if err := json.Unmarshal([]byte(tt.json), &req); err != nil {
			t.Fatal(err)
		}
		if req.Plan != tt.want {
			t.Errorf("%s: Plan = %v, want %v", tt.json, req.Plan, tt.want)
		}
	}
}

func TestInitializeRequestReadsElicitationForm(t *testing.T) {
	tests := []struct {
		name string
		json string
		want bool
	}{
		{"none", `{"protocolVersion":1,"clientCapabilities":{}}`, false},
		{"form", `{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}}}}`, true},
		{"url only", `{"protocolVersion":1,"clientCapabilities":{"elicitation":{"url":{}}}}`, false},
		{"a null form advertises nothing", `{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":null}}}`, false},
		{"an empty elicitation advertises nothing", `{"protocolVersion":1,"clientCapabilities":{"elicitation":{}}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var req acp.InitializeRequest
			if err := json.Unmarshal([]byte(tt.json), &req); err != nil {
				t.Fatal(err)
			}
			if req.ElicitationForm != tt.want {
				t.Errorf("ElicitationForm = %v, want %v", req.ElicitationForm, tt.want)
			}
		})
	}
}
