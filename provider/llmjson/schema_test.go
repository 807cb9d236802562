package llmjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type schemaCitation struct {
	Quote string `json:"quote"`
	Line  int    `json:"line,omitempty"`
}

type schemaReply struct {
	Point      string           `json:"point"`
	Confidence Int              `json:"confidence"`
	Concede    bool             `json:"concede"`
	Evidence   []schemaCitation `json:"evidence"`
	Computed   int              `json:"computed"`
	Note       string           `json:"note,omitempty"`
}

// object is the part of a JSON Schema the test reads.
type object struct {
	Type                 string            `json:"type"`
	Properties           map[string]object `json:"properties"`
	Required             []string          `json:"required"`
	AdditionalProperties *bool             `json:"additionalProperties"`
	Items                *object           `json:"items"`
}

// jsonFields lists a struct's JSON names, and those without omitempty.
func jsonFields(t reflect.Type) (all, required []string) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		all = append(all, name)
		if !strings.Contains(opts, "omitempty") {
			required = append(required, name)
		}
	}
	return all, required
}

// TestSchemaFollowsTheType keeps the schema and the reply type in step:
// every JSON field of the type is a property, the ones without omitempty
// are required, nothing else is allowed, at every level.
func TestSchemaFollowsTheType(t *testing.T) {
	s := Schema("reply", schemaReply{}, "computed")
	assert.Equal(t, "reply", s.Name)
	var o object
	require.NoError(t, json.Unmarshal(s.Definition, &o))
	all, required := jsonFields(reflect.TypeOf(schemaReply{}))
	props := make([]string, 0, len(o.Properties))
	for p := range o.Properties {
		props = append(props, p)
	}
	assert.ElementsMatch(t, all, props)
	assert.ElementsMatch(t, []string{"point", "confidence", "concede", "evidence"}, o.Required,
		"required: the fields without omitempty, less the ones named optional")
	assert.Contains(t, required, "computed")
	require.NotNil(t, o.AdditionalProperties)
	assert.False(t, *o.AdditionalProperties)
	assert.Equal(t, "integer", o.Properties["confidence"].Type, "an Int is an integer on the wire")
	item := o.Properties["evidence"].Items
	require.NotNil(t, item)
	assert.Equal(t, []string{"quote"}, item.Required)
	assert.NotContains(t, string(s.Definition), "$ref", "definitions are inlined")

	// A reply that follows the schema is one the reader takes.
	var got schemaReply
	require.NoError(t, Extract(`{"point": "C-1", "confidence": 80, "concede": false, "evidence": [{"quote": "x"}], "computed": 0}`, &got))
	assert.Equal(t, Int(80), got.Confidence)
}
