package agent

import (
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// A prompt with images reaches a model that takes images as parts in
// order, and one that does not as text with a note where each image was.
func TestRequestHistoryImages(t *testing.T) {
	img := presentation.ImageBlock{MimeType: "image/png", Data: "iVBORw0KGgo="}
	prompt := []presentation.ContentBlock{presentation.Text("what is "), img, presentation.Text(" this?")}
	placeholder := "what is \n[image content]\n this?"
	tests := []struct {
		name    string
		content []presentation.ContentBlock
		model   ModelInfo
		want    llm.Message
	}{
		{"text only, any model", []presentation.ContentBlock{presentation.Text("hi")}, ModelInfo{Name: "m", Images: true},
			llm.UserMessage("hi")},
		{"images to a model that takes them", prompt, ModelInfo{Name: "vision", Images: true},
			llm.Message{Role: llm.RoleUser, Content: placeholder, Parts: []llm.Part{
				llm.TextPart("what is "), llm.ImagePart("image/png", "iVBORw0KGgo="), llm.TextPart(" this?"),
			}}},
		{"an unknown block among images is a text part", []presentation.ContentBlock{img, presentation.UnknownBlock{Type: "audio", JSON: `{"type":"audio"}`}},
			ModelInfo{Images: true},
			llm.Message{Role: llm.RoleUser, Content: "[image content]\n[audio content]", Parts: []llm.Part{
				llm.ImagePart("image/png", "iVBORw0KGgo="), llm.TextPart("[audio content]"),
			}}},
		{"images to a model that takes none", prompt, ModelInfo{Name: "deepseek-v4-flash"},
			llm.UserMessage("what is \n[image omitted: model deepseek-v4-flash does not accept images; configure images = true for it]\n this?")},
		{"a model without a name", []presentation.ContentBlock{img}, ModelInfo{},
			llm.UserMessage("[image omitted: the model does not accept images; configure images = true for it]")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := []session.Event{{Seq: 1, Payload: session.UserMessage{Content: tt.content}}}
			got := requestHistory(events, tt.model)
			if len(got) != 1 || !reflect.DeepEqual(got[0], tt.want) {
				t.Errorf("requestHistory = %#v\nwant %#v", got, []llm.Message{tt.want})
			}
		})
	}
}

// history keeps images as placeholders, whatever the model, so what the
// estimate counts does not change.
func TestHistoryKeepsImagePlaceholders(t *testing.T) {
	events := []session.Event{{Seq: 1, Payload: session.UserMessage{Content: []presentation.ContentBlock{
		presentation.Text("see"), presentation.ImageBlock{MimeType: "image/png", Data: "AA=="},
	}}}}
	got := history(events)
	if want := llm.UserMessage("see\n[image content]"); len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("history = %#v, want %#v", got, want)
	}
}

func TestOmittedImagesNote(t *testing.T) {
	img := presentation.ImageBlock{MimeType: "image/png", Data: "AA=="}
	tests := []struct {
		name    string
		content []presentation.ContentBlock
		model   ModelInfo
		want    string // "" for no note
	}{
		{"no image", []presentation.ContentBlock{presentation.Text("hi")}, ModelInfo{Name: "m"}, ""},
		{"the model takes images", []presentation.ContentBlock{img}, ModelInfo{Name: "m", Images: true}, ""},
		{"one image", []presentation.ContentBlock{presentation.Text("see"), img}, ModelInfo{Name: "m"},
			"The image in this prompt was not sent: model m does not accept images. Configure images = true for the model if it does."},
		{"two images", []presentation.ContentBlock{img, img}, ModelInfo{Name: "m"},
			"The 2 images in this prompt were not sent: model m does not accept images. Configure images = true for the model if it does."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			note, ok := omittedImages(tt.content, tt.model)
			if ok != (tt.want != "") || note != tt.want {
				t.Errorf("omittedImages = %q, %v; want %q", note, ok, tt.want)
			}
		})
	}
}
