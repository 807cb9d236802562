package llmjson

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"

	"github.com/crucible-go/crucible/provider"
)

// Schema returns the JSON Schema of a seam's reply type, named name, for
// [provider.Request.Schema]: generated from the Go type that [Extract]
// decodes the reply into, so the schema the vendor is asked to follow and
// the type the reply is read as cannot drift apart. Every field without
// omitempty is required, no other fields are allowed, and definitions are
// inlined (some vendors resolve no $ref). The schema is a hint: a server
// may ignore it, and the reply is still validated when it is read.
//
// v is a value or a pointer of the reply type. Schema panics if the type
// cannot be described, which is a programming error found by the seam's
// first test.
//
// Properties named in optional are not required wherever they occur: the
// fields of a shared type that the caller fills in itself.
func Schema(name string, v any, optional ...string) *provider.Schema {
	r := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true, Mapper: mapType}
	s := r.ReflectFromType(reflect.TypeOf(v))
	s.Version = ""
	if len(optional) > 0 {
		relax(s, optional)
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("llmjson: schema %s: %v", name, err))
	}
	return &provider.Schema{Name: name, Definition: b}
}

// mapType gives the schemas of the reader's own types: an [Int] is an
// integer on the wire, whatever strings the reader also accepts. (A
// mapper rather than jsonschema's method hook keeps the schema library's
// types out of this package's API.)
func mapType(t reflect.Type) *jsonschema.Schema {
	if t == reflect.TypeFor[Int]() {
		return &jsonschema.Schema{Type: "integer"}
	}
	return nil
}

// relax drops the optional properties from every required list under s.
func relax(s *jsonschema.Schema, optional []string) {
	if s == nil {
		return
	}
	s.Required = slices.DeleteFunc(s.Required, func(p string) bool { return slices.Contains(optional, p) })
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			relax(p.Value, optional)
		}
	}
	relax(s.Items, optional)
}
