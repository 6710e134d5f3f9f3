package ollama

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// validateAnswer checks that content is exactly one JSON object that
// satisfies f, as the library (jsonschema-go) decides: types, enums,
// required fields, bounds, lengths, no extra fields, one branch of an
// anyOf. Numbers come back as float64s.
func validateAnswer(f *format, content string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(content))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("answer is not JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("answer has text after the JSON object")
	}
	v, err := finiteNumbers("answer", v)
	if err != nil {
		return nil, err
	}
	if err := f.resolved.Validate(v); err != nil {
		return nil, explain(f.resolved.Schema(), "answer", v, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("answer: want an object, got %s", jsonKind(v))
	}
	return obj, nil
}

// finiteNumbers turns the decoder's json.Numbers into float64s, the form
// the library validates (it would take a json.Number for a string). A
// number beyond a float64 (5e5555755555555555 is valid JSON) is refused
// here, by its field's name; fields are visited by name so the same answer
// always gets the same message.
func finiteNumbers(name string, v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a finite number", name, x)
		}
		return f, nil
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			f, err := finiteNumbers(k, x[k])
			if err != nil {
				return nil, err
			}
			x[k] = f
		}
	case []any:
		for i := range x {
			f, err := finiteNumbers(fmt.Sprintf("%s[%d]", name, i), x[i])
			if err != nil {
				return nil, err
			}
			x[i] = f
		}
	}
	return v, nil
}

// explain words why v breaks s, which the library has rejected with err,
// the way the retry prompt and the review queue put it: the field, what it
// holds and the rule it breaks ("importance: 150 is above the maximum
// 100"). The library's own message names schema paths and every anyOf
// branch at once, which helps neither a small model nor a curator. explain
// walks s in a fixed order — the keywords of the value itself, the anyOf
// branch of the answer's verdict, the required fields in order, then the
// fields by name, then array items — and asks the library about each value
// and each keyword on its own (a missing or an extra field is a look-up),
// so the same answer always gets the same message; what it cannot place
// it reports with err.
func explain(s *jsonschema.Schema, name string, v any, err error) error {
	for _, k := range keywords(s) {
		if validate(k.schema, v) != nil {
			return k.say(name, v)
		}
	}
	if s.AnyOf != nil {
		b := branchFor(s.AnyOf, v)
		if berr := validate(b, v); berr != nil {
			return explain(b, name, v, berr)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range s.Required {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("%s: missing required field %q", name, r)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p, ok := s.Properties[k]
			switch {
			case !ok && s.AdditionalProperties != nil:
				return fmt.Errorf("%s: unexpected field %q", name, k)
			case ok:
				if perr := validate(p, x[k]); perr != nil {
					return explain(p, k, x[k], perr)
				}
			}
		}
	case []any:
		if s.Items == nil {
			break
		}
		for i, item := range x {
			if ierr := validate(s.Items, item); ierr != nil {
				return explain(s.Items, fmt.Sprintf("%s[%d]", name, i), item, ierr)
			}
		}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// validate asks the library whether v satisfies s, a part of one of the
// schemas or a single keyword of one.
func validate(s *jsonschema.Schema, v any) error {
	r, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	return r.Validate(v)
}

// branchFor is the anyOf branch an answer meant: the one whose "verdict"
// enum holds the answer's verdict (the branches differ in it), else the
// first.
func branchFor(branches []*jsonschema.Schema, v any) *jsonschema.Schema {
	obj, _ := v.(map[string]any)
	verdict, ok := obj["verdict"].(string)
	for _, b := range branches {
		if p := b.Properties["verdict"]; ok && p != nil && slices.Contains(p.Enum, any(verdict)) {
			return b
		}
	}
	return branches[0]
}

// keyword is one keyword of a schema on its own, and the words for a value
// that breaks it.
type keyword struct {
	schema *jsonschema.Schema
	say    func(name string, v any) error
}

// keywords are the keywords of s that the judge's schemas use, each on its
// own (a keyword s does not set gives an empty schema, which anything
// satisfies), in the order the library checks them.
func keywords(s *jsonschema.Schema) []keyword {
	return []keyword{
		{&jsonschema.Schema{Type: s.Type}, func(name string, v any) error { return typeError(name, s.Type, v) }},
		{&jsonschema.Schema{Enum: s.Enum}, func(name string, v any) error {
			return fmt.Errorf("%s: %q is not one of %s", name, v, joinValues(s.Enum))
		}},
		{&jsonschema.Schema{Minimum: s.Minimum}, func(name string, v any) error {
			return fmt.Errorf("%s: %v is below the minimum %v", name, v, *s.Minimum)
		}},
		{&jsonschema.Schema{Maximum: s.Maximum}, func(name string, v any) error {
			return fmt.Errorf("%s: %v is above the maximum %v", name, v, *s.Maximum)
		}},
		{&jsonschema.Schema{MinLength: s.MinLength}, func(name string, v any) error {
			return fmt.Errorf("%s: %q is shorter than %d characters", name, v, *s.MinLength)
		}},
		{&jsonschema.Schema{MaxLength: s.MaxLength}, func(name string, v any) error {
			return fmt.Errorf("%s: %d characters, more than the %d allowed", name, utf8.RuneCountInString(v.(string)), *s.MaxLength)
		}},
		{&jsonschema.Schema{MaxItems: s.MaxItems}, func(name string, v any) error {
			return fmt.Errorf("%s: %d items, more than the %d allowed", name, len(v.([]any)), *s.MaxItems)
		}},
		{&jsonschema.Schema{UniqueItems: s.UniqueItems}, func(name string, v any) error {
			return fmt.Errorf("%s: %v is listed twice", name, firstRepeat(v.([]any)))
		}},
	}
}

// typeError words a value of the wrong JSON type.
func typeError(name, want string, v any) error {
	switch want {
	case "integer":
		if _, ok := v.(float64); ok {
			return fmt.Errorf("%s: %v is not a whole number", name, v)
		}
		return fmt.Errorf("%s: want a number, got %s", name, jsonKind(v))
	case "boolean":
		return fmt.Errorf("%s: want true or false, got %s", name, jsonKind(v))
	case "object", "array":
		return fmt.Errorf("%s: want an %s, got %s", name, want, jsonKind(v))
	}
	return fmt.Errorf("%s: want a %s, got %s", name, want, jsonKind(v))
}

// firstRepeat is the first item of items that an earlier one equals.
func firstRepeat(items []any) any {
	for i, x := range items {
		for _, y := range items[:i] {
			if jsonschema.Equal(x, y) {
				return x
			}
		}
	}
	return nil
}

func joinValues(vs []any) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
