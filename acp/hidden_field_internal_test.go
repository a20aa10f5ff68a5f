package acp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// filler sets every exported field of a value to something non-zero, each
// string to a marker naming its field, and records the markers.
type filler struct {
	markers []string
}

func (f *filler) fill(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.String:
		marker := "<" + path + ">"
		f.markers = append(f.markers, marker)
		v.SetString(marker)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem(), path)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			marker := "<" + path + ">"
			f.markers = append(f.markers, marker)
			v.SetBytes([]byte(`{"m":"` + marker + `"}`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		f.fill(v.Index(0), path+"[0]")
	case reflect.Map:
		marker := "<" + path + ">"
		f.markers = append(f.markers, marker)
		v.Set(reflect.ValueOf(map[string]any{"m": marker}))
	case reflect.Interface:
		var variant any
		switch v.Type() {
		case reflect.TypeFor[ContentBlock]():
			variant = &TextContent{}
		case reflect.TypeFor[ToolCallContent]():
			variant = &Diff{}
		case reflect.TypeFor[ResourceContents]():
			variant = &BlobResourceContents{}
		case reflect.TypeFor[SessionConfigOption]():
			variant = &BooleanConfigOption{}
		default:
			panic("no variant to fill " + v.Type().String())
		}
		e := reflect.ValueOf(variant).Elem()
		f.fill(e, path)
		v.Set(e)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	default:
		panic("cannot fill " + v.Kind().String())
	}
}

// TestNoFieldIsHidden fills every field of every outbound type and checks
// that each reaches the wire: a field added to a type but not to its wire
// form fails here.
func TestNoFieldIsHidden(t *testing.T) {
	samples := []any{
		AgentMessageChunk{}, AgentThoughtChunk{}, UserMessageChunk{}, ToolCall{}, ToolCallUpdate{}, Plan{},
		AvailableCommandsUpdate{}, CurrentModeUpdate{}, ConfigOptionUpdate{}, SessionInfoUpdate{}, UsageUpdate{},
		TextContent{}, ImageContent{}, AudioContent{}, ResourceLink{}, EmbeddedResource{},
		ContentItem{}, Diff{}, Terminal{}, SelectConfigOption{}, RequestPermissionRequest{}, SessionNotification{},
	}
	for _, s := range samples {
		typ := reflect.TypeOf(s)
		t.Run(typ.Name(), func(t *testing.T) {
			v := reflect.New(typ).Elem()
			f := &filler{}
			switch typ {
			case reflect.TypeFor[SessionNotification]():
				v.Set(reflect.ValueOf(SessionNotification{Update: UsageUpdate{}}))
				f.fill(v.Field(0), "SessionID")
				f.fill(v.Field(2), "Meta")
			default:
				f.fill(v, typ.Name())
			}
			data, err := marshalJSON(encodable(t, v.Interface()))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range f.markers {
				if strings.Contains(m, ".Groups[") {
					continue // encodable drops them: checked apart below
				}
				if !strings.Contains(string(data), m) {
					t.Errorf("%s is not on the wire: %s", m, data)
				}
			}
		})
	}
	// A select option's groups replace its flat options on the wire.
	opt := SelectConfigOption{Options: []ConfigSelectOption{{Value: "<flat>"}}, Groups: []ConfigSelectGroup{{Group: "<grouped>"}}}
	data, err := marshalJSON(opt.configOptionWire())
	if err != nil || !strings.Contains(string(data), "<grouped>") || strings.Contains(string(data), "<flat>") {
		t.Errorf("grouped select option = %s, %v", data, err)
	}
}

// encodable is what json.Marshal encodes v as on the wire.
func encodable(t *testing.T, v any) any {
	t.Helper()
	switch v := v.(type) {
	case SelectConfigOption:
		v.Groups = nil // checked apart: groups replace options
		return v.configOptionWire()
	case json.Marshaler:
		return v
	}
	return wireOf(t, v)
}
