package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// captureSchema is sent as `format` for capture verdicts; its shape is the
// published contract of DESIGN.md: {"store", "kind", "type", "importance",
// "reason"}.
var captureSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"store":{"type":"boolean"},` +
	`"kind":{"type":"string","enum":["fact","episode"]},` +
	`"type":{"type":"string"},` +
	`"importance":{"type":"number","minimum":0,"maximum":1},` +
	`"reason":{"type":"string"}},` +
	`"required":["store","kind","type","importance","reason"],"additionalProperties":false}`)

// triageSchema is sent as `format` for triage verdicts: {"verdict",
// "retype_to"?, "reason", "confidence"}.
var triageSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"verdict":{"type":"string","enum":["keep","echo","roleplay_scene","retype"]},` +
	`"retype_to":{"type":"string"},` +
	`"reason":{"type":"string"},` +
	`"confidence":{"type":"number","minimum":0,"maximum":1}},` +
	`"required":["verdict","reason","confidence"],"additionalProperties":false}`)

// SchemaHash is the SHA-256 of a schema's compact JSON; it is part of every
// cache key so a schema change never serves stale verdicts.
func SchemaHash(s json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, s); err != nil {
		return hashHex(s)
	}
	return hashHex(b.Bytes())
}

// schema is the subset of JSON Schema the judge's schemas use.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	Enum                 []string           `json:"enum"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
}

func mustSchema(raw json.RawMessage) *schema {
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		panic(fmt.Sprintf("judge: built-in schema does not parse: %v", err))
	}
	return &s
}

// validateAnswer checks that content is exactly one JSON value that
// satisfies raw (types, enums, required fields, bounds, no extra fields).
// The model's answer is validated even though Ollama constrains decoding
// with the same schema: older servers and some models ignore `format`, and
// bounds such as minimum/maximum are not enforced by the grammar.
func validateAnswer(raw json.RawMessage, content string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(content))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("answer is not JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("answer has text after the JSON object")
	}
	if err := mustSchema(raw).check("", v); err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

func (s *schema) check(path string, v any) error {
	name := path
	if name == "" {
		name = "answer"
	}
	switch s.Type {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %s", name, jsonKind(v))
		}
		for _, r := range s.Required {
			if _, ok := obj[r]; !ok {
				return fmt.Errorf("%s: missing required field %q", name, r)
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return fmt.Errorf("%s: unexpected field %q", name, k)
				}
				continue
			}
			if err := ps.check(k, obj[k]); err != nil {
				return err
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: want a string, got %s", name, jsonKind(v))
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			return fmt.Errorf("%s: %q is not one of %s", name, str, strings.Join(s.Enum, ", "))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want true or false, got %s", name, jsonKind(v))
		}
	case "number":
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("%s: want a number, got %s", name, jsonKind(v))
		}
		f, err := n.Float64()
		if err != nil {
			return fmt.Errorf("%s: %q is not a finite number", name, n)
		}
		if s.Minimum != nil && f < *s.Minimum {
			return fmt.Errorf("%s: %v is below the minimum %v", name, f, *s.Minimum)
		}
		if s.Maximum != nil && f > *s.Maximum {
			return fmt.Errorf("%s: %v is above the maximum %v", name, f, *s.Maximum)
		}
	default:
		return fmt.Errorf("%s: schema type %q is not supported", name, s.Type)
	}
	return nil
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
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
