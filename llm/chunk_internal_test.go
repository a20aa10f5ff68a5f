package llm

import (
	"bytes"
	"log/slog"
	"reflect"
	"strings"
	"testing"
)

// The chunk shapes below are what each server sends, copied in structure
// (field names, nulls, extra fields) from their streams.
func TestChunkShapesOfEachServer(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []Event
	}{
		{
			name: "DeepSeek: reasoning_content, then text",
			chunks: []string{
				`{"id":"5f1a","object":"chat.completion.chunk","created":1764500000,"model":"deepseek-v4-flash","system_fingerprint":"fp_ffc7281d48_prod0820_fp8_kvcache","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""},"logprobs":null,"finish_reason":null}]}`,
				`{"id":"5f1a","object":"chat.completion.chunk","created":1764500000,"model":"deepseek-v4-flash","system_fingerprint":"fp_ffc7281d48_prod0820_fp8_kvcache","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"Let me"},"logprobs":null,"finish_reason":null}]}`,
				`{"id":"5f1a","object":"chat.completion.chunk","created":1764500000,"model":"deepseek-v4-flash","system_fingerprint":"fp_ffc7281d48_prod0820_fp8_kvcache","choices":[{"index":0,"delta":{"content":"Hi","reasoning_content":null},"logprobs":null,"finish_reason":null}]}`,
				`{"id":"5f1a","object":"chat.completion.chunk","created":1764500000,"model":"deepseek-v4-flash","system_fingerprint":"fp_ffc7281d48_prod0820_fp8_kvcache","choices":[{"index":0,"delta":{"content":"","reasoning_content":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2},"prompt_cache_hit_tokens":4,"prompt_cache_miss_tokens":6}}`,
			},
			want: []Event{
				ReasoningDelta{Text: "Let me"},
				TextDelta{Text: "Hi"},
				Finish{Reason: FinishStop, Raw: "stop"},
				UsageReport{Usage: Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CachedPromptTokens: 4}},
			},
		},
		{
			name: "DeepSeek: tool call fragments, cache hits only as prompt_cache_hit_tokens",
			chunks: []string{
				`{"id":"6a","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_0_3f2a","type":"function","function":{"name":"read","arguments":""}}]},"logprobs":null,"finish_reason":null}]}`,
				`{"id":"6a","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"file_path\":\"a.go\"}"}}]},"logprobs":null,"finish_reason":null}]}`,
				`{"id":"6a","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"tool_calls"}]}`,
				`{"id":"6a","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_cache_hit_tokens":3,"prompt_cache_miss_tokens":7}}`,
			},
			want: []Event{
				ToolCallDelta{Index: 0, ID: "call_0_3f2a", Name: "read"},
				ToolCallDelta{Index: 0, Arguments: `{"file_path":"a.go"}`},
				Finish{Reason: FinishToolCalls, Raw: "tool_calls"},
				UsageReport{Usage: Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CachedPromptTokens: 3}},
			},
		},
		{
			name: "OpenAI: role chunk, refusal and annotations, usage null until a usage-only final chunk",
			chunks: []string{
				`{"id":"chatcmpl-C1","object":"chat.completion.chunk","created":1764500000,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b3f1157249","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"Qz"}`,
				`{"id":"chatcmpl-C1","object":"chat.completion.chunk","created":1764500000,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b3f1157249","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"x8Jk"}`,
				`{"id":"chatcmpl-C1","object":"chat.completion.chunk","created":1764500000,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b3f1157249","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null,"obfuscation":"a"}`,
				`{"id":"chatcmpl-C1","object":"chat.completion.chunk","created":1764500000,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b3f1157249","choices":[],"usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"obfuscation":"Rr"}`,
			},
			want: []Event{
				TextDelta{Text: "Hello"},
				Finish{Reason: FinishStop, Raw: "stop"},
				UsageReport{Usage: Usage{PromptTokens: 19, CompletionTokens: 10, TotalTokens: 29}},
			},
		},
		{
			name: "OpenAI: two parallel tool calls",
			chunks: []string{
				`{"id":"chatcmpl-C2","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read","arguments":""}}],"refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`,
				`{"id":"chatcmpl-C2","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
				`{"id":"chatcmpl-C2","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"glob","arguments":"{}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
				`{"id":"chatcmpl-C2","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}`,
			},
			want: []Event{
				ToolCallDelta{Index: 0, ID: "call_a", Name: "read"},
				ToolCallDelta{Index: 0, Arguments: "{}"},
				ToolCallDelta{Index: 1, ID: "call_b", Name: "glob", Arguments: "{}"},
				Finish{Reason: FinishToolCalls, Raw: "tool_calls"},
			},
		},
		{
			name: "Ollama: reasoning, a whole tool call in one chunk, usage-only final chunk",
			chunks: []string{
				`{"id":"chatcmpl-417","object":"chat.completion.chunk","created":1764500000,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Okay,"},"finish_reason":null}]}`,
				`{"id":"chatcmpl-417","object":"chat.completion.chunk","created":1764500000,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_r2d2","index":0,"type":"function","function":{"name":"read","arguments":"{\"file_path\":\"a.go\"}"}}]},"finish_reason":null}]}`,
				`{"id":"chatcmpl-417","object":"chat.completion.chunk","created":1764500000,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"tool_calls"}]}`,
				`{"id":"chatcmpl-417","object":"chat.completion.chunk","created":1764500000,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[],"usage":{"prompt_tokens":40,"completion_tokens":12,"total_tokens":52}}`,
			},
			want: []Event{
				ReasoningDelta{Text: "Okay,"},
				ToolCallDelta{Index: 0, ID: "call_r2d2", Name: "read", Arguments: `{"file_path":"a.go"}`},
				Finish{Reason: FinishToolCalls, Raw: "tool_calls"},
				UsageReport{Usage: Usage{PromptTokens: 40, CompletionTokens: 12, TotalTokens: 52}},
			},
		},
		{
			name: "vLLM: reasoning_content and reasoning, stop_reason, usage on every chunk",
			chunks: []string{
				`{"id":"chatcmpl-9c","object":"chat.completion.chunk","created":1764500000,"model":"Qwen/Qwen3-8B","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":7,"total_tokens":7,"completion_tokens":0}}`,
				`{"id":"chatcmpl-9c","object":"chat.completion.chunk","created":1764500000,"model":"Qwen/Qwen3-8B","choices":[{"index":0,"delta":{"reasoning_content":"Hmm"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":7,"total_tokens":8,"completion_tokens":1}}`,
				`{"id":"chatcmpl-9c","object":"chat.completion.chunk","created":1764500000,"model":"Qwen/Qwen3-8B","choices":[{"index":0,"delta":{"reasoning":" so"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":7,"total_tokens":9,"completion_tokens":2}}`,
				`{"id":"chatcmpl-9c","object":"chat.completion.chunk","created":1764500000,"model":"Qwen/Qwen3-8B","choices":[{"index":0,"delta":{"content":"Yes"},"logprobs":null,"finish_reason":"stop","stop_reason":151645}],"usage":{"prompt_tokens":7,"total_tokens":10,"completion_tokens":3}}`,
			},
			want: []Event{
				UsageReport{Usage: Usage{PromptTokens: 7, TotalTokens: 7}},
				ReasoningDelta{Text: "Hmm"},
				UsageReport{Usage: Usage{PromptTokens: 7, TotalTokens: 8, CompletionTokens: 1}},
				ReasoningDelta{Text: " so"},
				UsageReport{Usage: Usage{PromptTokens: 7, TotalTokens: 9, CompletionTokens: 2}},
				TextDelta{Text: "Yes"},
				Finish{Reason: FinishStop, Raw: "stop"},
				UsageReport{Usage: Usage{PromptTokens: 7, TotalTokens: 10, CompletionTokens: 3}},
			},
		},
		{
			name: "llama.cpp: fields in its order, usage and timings on the finish chunk",
			chunks: []string{
				`{"choices":[{"finish_reason":null,"index":0,"delta":{"reasoning_content":"Think"}}],"created":1764500000,"id":"chatcmpl-Lc","model":"gpt-3.5-turbo","system_fingerprint":"b6100-2b3e","object":"chat.completion.chunk"}`,
				`{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"id":"Kx1","type":"function","function":{"name":"read","arguments":"{\""}}]}}],"created":1764500000,"id":"chatcmpl-Lc","model":"gpt-3.5-turbo","system_fingerprint":"b6100-2b3e","object":"chat.completion.chunk"}`,
				`{"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a\":1}"}}]}}],"created":1764500000,"id":"chatcmpl-Lc","model":"gpt-3.5-turbo","system_fingerprint":"b6100-2b3e","object":"chat.completion.chunk"}`,
				`{"choices":[{"finish_reason":"tool_calls","index":0,"delta":{}}],"created":1764500000,"id":"chatcmpl-Lc","model":"gpt-3.5-turbo","system_fingerprint":"b6100-2b3e","object":"chat.completion.chunk","usage":{"completion_tokens":5,"prompt_tokens":3,"total_tokens":8},"timings":{"prompt_n":3,"prompt_ms":1.2,"predicted_n":5,"predicted_ms":12.5}}`,
			},
			want: []Event{
				ReasoningDelta{Text: "Think"},
				ToolCallDelta{Index: 0, ID: "Kx1", Name: "read", Arguments: `{"`},
				ToolCallDelta{Index: 0, Arguments: `a":1}`},
				Finish{Reason: FinishToolCalls, Raw: "tool_calls"},
				UsageReport{Usage: Usage{PromptTokens: 3, CompletionTokens: 5, TotalTokens: 8}},
			},
		},
		{
			name: "OpenRouter: reasoning with reasoning_details, native_finish_reason, usage with cost",
			chunks: []string{
				`{"id":"gen-17645-a","provider":"DeepInfra","model":"deepseek/deepseek-r1","object":"chat.completion.chunk","created":1764500000,"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Plan","reasoning_details":[{"type":"reasoning.text","text":"Plan","format":"unknown","index":0}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`,
				`{"id":"gen-17645-a","provider":"DeepInfra","model":"deepseek/deepseek-r1","object":"chat.completion.chunk","created":1764500000,"choices":[{"index":0,"delta":{"role":"assistant","content":"Done","reasoning":null},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`,
				`{"id":"gen-17645-a","provider":"DeepInfra","model":"deepseek/deepseek-r1","object":"chat.completion.chunk","created":1764500000,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop","native_finish_reason":"stop","logprobs":null}]}`,
				`{"id":"gen-17645-a","provider":"DeepInfra","model":"deepseek/deepseek-r1","object":"chat.completion.chunk","created":1764500000,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null,"native_finish_reason":null,"logprobs":null}],"usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30,"cost":0.000123,"is_byok":false,"prompt_tokens_details":{"cached_tokens":2},"cost_details":{"upstream_inference_cost":null},"completion_tokens_details":{"reasoning_tokens":12}}}`,
			},
			want: []Event{
				ReasoningDelta{Text: "Plan"},
				TextDelta{Text: "Done"},
				Finish{Reason: FinishStop, Raw: "stop"},
				UsageReport{Usage: Usage{PromptTokens: 10, CompletionTokens: 20, TotalTokens: 30, CachedPromptTokens: 2}},
			},
		},
		{
			name: "choices other than 0 are ignored, a choice without index is 0",
			chunks: []string{
				`{"choices":[{"index":1,"delta":{"content":"other"}},{"delta":{"content":"mine"}}]}`,
			},
			want: []Event{TextDelta{Text: "mine"}},
		},
		{
			name: "tool calls without index: a new id starts a call, no id continues the last",
			chunks: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","function":{"name":"read","arguments":"{"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"b","function":{"name":"glob","arguments":"{}"}}]}}]}`,
			},
			want: []Event{
				ToolCallDelta{Index: 0, ID: "a", Name: "read", Arguments: "{"},
				ToolCallDelta{Index: 0, Arguments: "}"},
				ToolCallDelta{Index: 1, ID: "b", Name: "glob", Arguments: "{}"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			got := translateAll(t, &logs, tt.chunks...)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events\n got %#v\nwant %#v", got, tt.want)
			}
			if logs.Len() > 0 {
				t.Errorf("well-formed chunks logged:\n%s", logs.String())
			}
		})
	}
}

// A field of an unexpected type is skipped with a debug log and the rest
// of its chunk still counts; data that is not JSON is skipped with a
// warning. Nothing fails.
func TestChunkFieldsOfUnexpectedTypeAreSkipped(t *testing.T) {
	tests := []struct {
		name  string
		chunk string
		want  []Event
		log   string
	}{
		{
			name:  "content a number",
			chunk: `{"choices":[{"index":0,"delta":{"content":42,"reasoning_content":"still read"},"finish_reason":null}]}`,
			want:  []Event{ReasoningDelta{Text: "still read"}},
			log:   `level=DEBUG msg="model stream: ignored a chunk field of unexpected type" field=choices.delta.content json=number want=string`,
		},
		{
			name:  "reasoning an object",
			chunk: `{"choices":[{"index":0,"delta":{"reasoning":{"text":"x"},"content":"ok"}}]}`,
			want:  []Event{TextDelta{Text: "ok"}},
			log:   "field=choices.delta.reasoning",
		},
		{
			name:  "finish_reason a number",
			chunk: `{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":1}]}`,
			want:  []Event{TextDelta{Text: "a"}},
			log:   "field=choices.finish_reason",
		},
		{
			name:  "tool call index a string falls back to the id",
			chunk: `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":"0","id":"c","function":{"name":"read","arguments":"{}"}}]}}]}`,
			want:  []Event{ToolCallDelta{Index: 0, ID: "c", Name: "read", Arguments: "{}"}},
			log:   "field=choices.delta.tool_calls.index",
		},
		{
			name:  "tool_calls an object",
			chunk: `{"choices":[{"index":0,"delta":{"tool_calls":{"id":"c"},"content":"t"}}]}`,
			want:  []Event{TextDelta{Text: "t"}},
			log:   "field=choices.delta.tool_calls",
		},
		{
			name:  "choices an object, usage still read",
			chunk: `{"choices":{"0":{"delta":{"content":"x"}}},"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
			want:  []Event{UsageReport{Usage: Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}}},
			log:   "field=choices",
		},
		{
			name:  "usage counts as strings",
			chunk: `{"choices":[],"usage":{"prompt_tokens":"1","completion_tokens":2,"total_tokens":3}}`,
			want:  []Event{UsageReport{Usage: Usage{CompletionTokens: 2, TotalTokens: 3}}},
			log:   "field=usage.prompt_tokens",
		},
		{
			name:  "a chunk that is an array",
			chunk: `[1,2]`,
			log:   "level=DEBUG",
		},
		{
			name:  "not JSON",
			chunk: `{"choices":[{"index":0,"delta":{"content":"cut`,
			log:   `level=WARN msg="model stream: skipped a chunk that is not a JSON object"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			got := translateAll(t, &logs, tt.chunk)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events\n got %#v\nwant %#v", got, tt.want)
			}
			if !strings.Contains(logs.String(), tt.log) {
				t.Errorf("log %q lacks %q", logs.String(), tt.log)
			}
		})
	}
}

// Data after a chunk's JSON value is dropped with a warning, and a chunk
// that is not JSON is skipped; neither disturbs the chunks after it.
func TestChunkDecoderRecovers(t *testing.T) {
	var logs bytes.Buffer
	got := translateAll(t, &logs,
		`{"choices":[{"index":0,"delta":{"content":"a"}}]} {"choices":[{"index":0,"delta":{"content":"x"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"b"}}]}`,
		``,
		`{"choices":[{"index":0,"delta":{"content":"c"}}]}`,
		`{"choices":[{"index":0,"delta":{"content":`,
		`{"choices":[{"index":0,"delta":{"content":"d"}}]}`,
		`}}`,
		`{"choices":[{"index":0,"delta":{"content":"e"}}]}`,
	)
	want := []Event{TextDelta{Text: "a"}, TextDelta{Text: "b"}, TextDelta{Text: "c"}, TextDelta{Text: "d"}, TextDelta{Text: "e"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n got %#v\nwant %#v", got, want)
	}
	for _, line := range []string{
		`level=WARN msg="model stream: ignored data after a chunk's JSON value"`,
		`level=WARN msg="model stream: skipped a chunk that is not a JSON object" err=EOF`,
		`level=WARN msg="model stream: skipped a chunk that is not a JSON object" err="unexpected EOF"`,
		`level=WARN msg="model stream: skipped a chunk that is not a JSON object" err="invalid character '}' looking for beginning of value"`,
	} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("log lacks %s:\n%s", line, logs.String())
		}
	}
}

// A field absent from a chunk never keeps the value the previous chunk
// decoded into the reused chunkWire.
func TestChunkReuseKeepsNothingOver(t *testing.T) {
	got := translateAll(t, &bytes.Buffer{},
		`{"choices":[{"index":0,"delta":{"content":"a","reasoning_content":"r","tool_calls":[{"index":0,"id":"c","function":{"name":"n","arguments":"x"}}]},"finish_reason":null}],"usage":{"prompt_tokens":1}}`,
		`{"choices":[{"index":0,"delta":{}}]}`,
		`{"choices":[]}`,
		`{"choices":[{"index":0,"delta":{"content":"b"}}]}`,
	)
	want := []Event{
		ReasoningDelta{Text: "r"},
		TextDelta{Text: "a"},
		ToolCallDelta{Index: 0, ID: "c", Name: "n", Arguments: "x"},
		UsageReport{Usage: Usage{PromptTokens: 1}},
		TextDelta{Text: "b"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n got %#v\nwant %#v", got, want)
	}
}

// translateAll decodes chunks in order through one source, as a stream
// does, logging at debug level to logs, and returns their events.
func translateAll(t *testing.T, logs *bytes.Buffer, chunks ...string) []Event {
	t.Helper()
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
	s := openaiSource{chunks: chunkDecoder{log: log}}
	var evs []Event
	for _, c := range chunks {
		// Event data ends in a newline, as the SSE framing leaves it.
		if !s.chunks.decode([]byte(c + "\n")) {
			continue
		}
		if len(s.chunks.chunk.Error) > 0 {
			t.Fatalf("chunk %s has an error field", c)
		}
		evs = s.translate(evs, &s.chunks.chunk)
	}
	return evs
}
