package acp

// ContentBlock is one block of content an agent shows: TextContent,
// ImageContent, AudioContent, ResourceLink or EmbeddedResource. The set is
// closed: no other type implements it. Each block writes its own "type"
// discriminator.
type ContentBlock interface {
	// contentWire returns the block's wire form, its "type" set.
	contentWire() (any, error)
}

// Annotations tell the client how to use or display a block.
type Annotations struct {
	Audience     []Role         `json:"audience,omitempty"`
	LastModified string         `json:"lastModified,omitempty"`
	Priority     *float64       `json:"priority,omitempty"`
	Meta         map[string]any `json:"_meta,omitempty"`
}

// Role is who a block is meant for: RoleUser or RoleAssistant.
type Role string

// The roles of Annotations.Audience.
const (
	RoleAssistant Role = "assistant"
	RoleUser      Role = "user"
)

// TextContent is a text block.
type TextContent struct {
	Text        string
	Annotations *Annotations
	Meta        map[string]any
}

// Text returns a text block holding s.
func Text(s string) TextContent { return TextContent{Text: s} }

type textContentWire struct {
	Type        string         `json:"type"`
	Text        string         `json:"text"`
	Annotations *Annotations   `json:"annotations,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

func (c TextContent) contentWire() (any, error) {
	return textContentWire{Type: "text", Text: c.Text, Annotations: c.Annotations, Meta: c.Meta}, nil
}

// ImageContent is an image block: base64 Data of MimeType.
type ImageContent struct {
	Data        string
	MimeType    string
	URI         string
	Annotations *Annotations
	Meta        map[string]any
}

type imageContentWire struct {
	Type        string         `json:"type"`
	Data        string         `json:"data"`
	MimeType    string         `json:"mimeType"`
	URI         string         `json:"uri,omitempty"`
	Annotations *Annotations   `json:"annotations,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

func (c ImageContent) contentWire() (any, error) {
	return imageContentWire{Type: "image", Data: c.Data, MimeType: c.MimeType, URI: c.URI, Annotations: c.Annotations, Meta: c.Meta}, nil
}

// AudioContent is an audio block: base64 Data of MimeType.
type AudioContent struct {
	Data        string
	MimeType    string
	Annotations *Annotations
	Meta        map[string]any
}

type audioContentWire struct {
	Type        string         `json:"type"`
	Data        string         `json:"data"`
	MimeType    string         `json:"mimeType"`
	Annotations *Annotations   `json:"annotations,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

func (c AudioContent) contentWire() (any, error) {
	return audioContentWire{Type: "audio", Data: c.Data, MimeType: c.MimeType, Annotations: c.Annotations, Meta: c.Meta}, nil
}

// ResourceLink points at a resource the client can fetch.
type ResourceLink struct {
	Name        string
	URI         string
	Title       string
	Description string
	MimeType    string
	Size        *int64
	Annotations *Annotations
	Meta        map[string]any
}

type resourceLinkWire struct {
	Type        string         `json:"type"`
	Name        string         `json:"name"`
	URI         string         `json:"uri"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	MimeType    string         `json:"mimeType,omitempty"`
	Size        *int64         `json:"size,omitempty"`
	Annotations *Annotations   `json:"annotations,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

func (c ResourceLink) contentWire() (any, error) {
	return resourceLinkWire{
		Type: "resource_link", Name: c.Name, URI: c.URI, Title: c.Title, Description: c.Description,
		MimeType: c.MimeType, Size: c.Size, Annotations: c.Annotations, Meta: c.Meta,
	}, nil
}

// EmbeddedResource is a resource's contents carried in the block.
type EmbeddedResource struct {
	Resource    ResourceContents
	Annotations *Annotations
	Meta        map[string]any
}

type embeddedResourceWire struct {
	Type        string           `json:"type"`
	Resource    ResourceContents `json:"resource"`
	Annotations *Annotations     `json:"annotations,omitempty"`
	Meta        map[string]any   `json:"_meta,omitempty"`
}

func (c EmbeddedResource) contentWire() (any, error) {
	if c.Resource == nil {
		return nil, errNilVariant("embedded resource")
	}
	return embeddedResourceWire{Type: "resource", Resource: c.Resource, Annotations: c.Annotations, Meta: c.Meta}, nil
}

// ResourceContents is what an EmbeddedResource holds: TextResourceContents
// or BlobResourceContents. The set is closed. The two are told apart by
// their fields (text or blob), not by a discriminator.
type ResourceContents interface {
	resourceContents()
}

// TextResourceContents is a text resource.
type TextResourceContents struct {
	URI      string         `json:"uri"`
	Text     string         `json:"text"`
	MimeType string         `json:"mimeType,omitempty"`
	Meta     map[string]any `json:"_meta,omitempty"`
}

// BlobResourceContents is a binary resource, base64 in Blob.
type BlobResourceContents struct {
	URI      string         `json:"uri"`
	Blob     string         `json:"blob"`
	MimeType string         `json:"mimeType,omitempty"`
	Meta     map[string]any `json:"_meta,omitempty"`
}

func (TextResourceContents) resourceContents() {}
func (BlobResourceContents) resourceContents() {}

// contentWire returns b's wire form; a nil block is an error.
func contentWire(b ContentBlock) (any, error) {
	if b == nil {
		return nil, errNilVariant("content block")
	}
	return b.contentWire()
}
