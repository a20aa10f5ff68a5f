// Package llm streams one model step at a time from a language model.
//
// A [Provider] takes a [Request] — the system prompt, the conversation so far
// and the tool schemas — and returns a [Stream] of [Event] values: text,
// reasoning and tool-call deltas as they arrive, retry notices, the finish
// reason and token usage. The stream also assembles the final assistant
// message, so a caller that only wants the result drains it with [Collect]:
//
//	p, err := llm.NewProvider(llm.ConfigFromEnv(os.Getenv))
//	if err != nil {
//		return err
//	}
//	s, err := p.Stream(ctx, llm.Request{
//		System:   "You are a careful coding agent.",
//		Messages: []llm.Message{llm.UserMessage("List the files.")},
//		Tools: []llm.Tool{{
//			Name:        "glob",
//			Description: "Find files by pattern.",
//			Parameters:  json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"}}}`),
//		}},
//	})
//	if err != nil {
//		return err
//	}
//	resp, err := llm.Collect(s, func(ev llm.Event) error {
//		if d, ok := ev.(llm.TextDelta); ok {
//			fmt.Print(d.Text)
//		}
//		return nil
//	})
//	// resp.Message holds the text, reasoning and complete tool calls in
//	// model order; resp.FinishReason says why the step ended.
//
// Two providers ship here. [OpenAI] speaks the OpenAI-compatible Chat
// Completions streaming protocol (DeepSeek by default; OpenAI, Ollama, vLLM,
// llama.cpp and OpenRouter by base URL), turning DeepSeek's
// reasoning_content into [ReasoningDelta] events and retrying rate limits,
// server errors and network timeouts with backoff. [Scripted] replays a JSONL
// script, one line per request, for tests and the demo.
//
// Errors a caller may want to route on are typed: [*AuthError] (no key or a
// rejected key), [*ModelNotFoundError] (which names the models the server
// offers), [*APIError], [*ConnectionError] and [*ScriptError]. Their text
// never shows the API key or a bearer token, even when the server echoed
// them: every error passes through the config's [Redactor], which the
// command's logs use too. Cancelling the context ends a stream promptly
// with an error for which errors.Is(err, context.Canceled) holds.
//
// DeepSeek's V4 models think by default; [Config] Thinking and
// ReasoningEffort set "thinking" and "reasoning_effort", and every
// assistant message's reasoning goes back verbatim as reasoning_content,
// as those models require.
package llm
