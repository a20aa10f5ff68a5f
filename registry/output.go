package registry

import (
	"errors"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// snapshotValue turns a body value into canonical JSON, or says why it
// cannot be carried losslessly.
func snapshotValue(v any) (string, []string) {
	text, err := jsonvalue.Marshal(v)
	if err == nil {
		return text, nil
	}
	if errors.Is(err, jsonvalue.ErrNotLossless) {
		return "", []string{"value is not lossless JSON"}
	}
	return "", []string{"value snapshot failed: " + err.Error()}
}

// renderFunc and metaFunc are the two pure projections of an output
// contract; meta may be nil.
type (
	renderFunc[A, R any] func(args A, value R) ([]presentation.ContentBlock, error)
	metaFunc[A, R any]   func(args A, value R) (any, error)
)

// finishOutput renders content and, for a top-level call, presentation meta
// for a value already snapshotted to canonical JSON text.
func finishOutput[A, R any](name, value string, topLevel bool, render renderFunc[A, R], meta metaFunc[A, R], a A, r R) (Output, error) {
	var content []presentation.ContentBlock
	if err := guard(func() (err error) {
		content, err = render(a, r)
		return err
	}); err != nil {
		return Output{}, OutputError(name, []string{"output.render failed: " + err.Error()})
	}
	if err := checkContent(content); err != nil {
		return Output{}, OutputError(name, []string{"output.render returned non-lossless JSON"})
	}
	out := Output{Value: value, Content: content}
	if !topLevel || meta == nil {
		return out, nil
	}
	var m any
	if err := guard(func() (err error) {
		m, err = meta(a, r)
		return err
	}); err != nil {
		return Output{}, OutputError(name, []string{"output.presentationMeta failed: " + err.Error()})
	}
	text, err := jsonvalue.Marshal(m)
	if err != nil {
		if errors.Is(err, jsonvalue.ErrNotLossless) {
			return Output{}, OutputError(name, []string{"output.presentationMeta returned non-lossless JSON"})
		}
		return Output{}, OutputError(name, []string{"output.presentationMeta failed: " + err.Error()})
	}
	out.Meta = text
	return out, nil
}

// checkContent makes sure every block can be carried as JSON: only blocks
// kept from elsewhere (UnknownBlock) can hold text that is not.
func checkContent(blocks []presentation.ContentBlock) error {
	for _, b := range blocks {
		if u, ok := b.(presentation.UnknownBlock); ok {
			if _, err := jsonvalue.Parse(u.JSON); err != nil {
				return err
			}
		}
		if b == nil {
			return errors.New("nil content block")
		}
	}
	return nil
}
