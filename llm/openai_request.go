package llm

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// chatParams encodes req as Chat Completions parameters for cfg's model,
// with its thinking settings when they are set.
func chatParams(cfg Config, req Request) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{
		Model: shared.ChatModel(cfg.Model),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{
			IncludeUsage: param.NewOpt(true),
		},
	}
	if cfg.ReasoningEffort != "" {
		params.ReasoningEffort = shared.ReasoningEffort(cfg.ReasoningEffort)
	}
	if cfg.Thinking != "" {
		params.SetExtraFields(map[string]any{"thinking": map[string]string{"type": cfg.Thinking}})
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = param.NewOpt(int64(req.MaxTokens))
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for i, m := range req.Messages {
		msg, err := chatMessage(m)
		if err != nil {
			return params, fmt.Errorf("message %d: %w", i, err)
		}
		params.Messages = append(params.Messages, msg)
	}
	for _, t := range req.Tools {
		tool, err := chatTool(t)
		if err != nil {
			return params, err
		}
		params.Tools = append(params.Tools, tool)
	}
	return params, nil
}

func chatMessage(m Message) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case RoleUser:
		if len(m.Parts) > 0 {
			return openai.UserMessage(contentParts(m.Parts)), nil
		}
		return openai.UserMessage(m.Content), nil
	case RoleTool:
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	case RoleAssistant:
		var a openai.ChatCompletionAssistantMessageParam
		if m.Content != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(m.Content)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name:      c.Name,
						Arguments: c.Arguments,
					},
				},
			})
		}
		if m.Reasoning != "" {
			// Verbatim: DeepSeek's thinking models answer 400 when an
			// earlier assistant message's reasoning does not come back.
			a.SetExtraFields(map[string]any{"reasoning_content": m.Reasoning})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	default:
		return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown message role %q", m.Role)
	}
}

// contentParts encodes a user message's parts as Chat Completions content
// parts: {"type":"text","text":…} and {"type":"image_url","image_url":
// {"url":"data:<mime>;base64,…"}}, in order.
func contentParts(parts []Part) []openai.ChatCompletionContentPartUnionParam {
	out := make([]openai.ChatCompletionContentPartUnionParam, len(parts))
	for i, p := range parts {
		if p.Image != nil {
			out[i] = openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: p.Image.DataURL()})
			continue
		}
		out[i] = openai.TextContentPart(p.Text)
	}
	return out
}

func chatTool(t Tool) (openai.ChatCompletionToolUnionParam, error) {
	fn := shared.FunctionDefinitionParam{Name: t.Name}
	if t.Description != "" {
		fn.Description = param.NewOpt(t.Description)
	}
	if len(t.Parameters) > 0 {
		if !json.Valid(t.Parameters) {
			return openai.ChatCompletionToolUnionParam{}, fmt.Errorf("tool %q: parameters are not valid JSON", t.Name)
		}
		// Raw, so the schema's key order reaches the model unchanged.
		fn.SetExtraFields(map[string]any{"parameters": json.RawMessage(t.Parameters)})
	}
	return openai.ChatCompletionFunctionTool(fn), nil
}
