package ollama

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The schemas sent as `format`. Ollama turns them into a grammar that
// constrains sampling (llama.cpp's json-schema-to-grammar), so the schema
// is written in what that grammar enforces, measured against a real server:
//   - labels are `enum`s — a free "type" string let a model store types
//     like "," or "}";
//   - confidence and importance are integers 0–100: the grammar bounds
//     integers but not numbers (a number came back as 992.93 and
//     5e5555755555555555); the client divides by 100;
//   - free strings have a maxLength, so a model cannot spend its whole
//     token budget inside one;
//   - properties are in the order the model should write them (the
//     grammar keeps the schema's order), so the schemas are built here
//     as ordered JSON, not from Go maps.
// Every answer is still validated against the same schema here, because
// older servers and some models ignore `format`.

// Limits of the free strings in the schemas, in characters.
const (
	maxReason  = 200
	maxWording = 200
	maxScope   = 80
)

// prop is one property of an object schema, in order.
type prop struct {
	name   string
	schema string // JSON
}

func object(required []string, props ...prop) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, p := range props {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(p.name) + ":" + p.schema)
	}
	req, _ := json.Marshal(required)
	b.WriteString(`},"required":` + string(req) + `,"additionalProperties":false}`)
	return b.String()
}

func enum(values ...string) string {
	v, _ := json.Marshal(values)
	return `{"type":"string","enum":` + string(v) + `}`
}

func text(maxLen int) string { return fmt.Sprintf(`{"type":"string","maxLength":%d}`, maxLen) }

const (
	percent = `{"type":"integer","minimum":0,"maximum":100}`
	boolean = `{"type":"boolean"}`
)

// captureSchemaFor is the capture verdict schema for the allowed labels:
// {"store", "kind", "type" (one of types), "importance" (0–100),
// "reason"}.
func captureSchemaFor(types []string) json.RawMessage {
	return json.RawMessage(object([]string{"store", "kind", "type", "importance", "reason"},
		prop{"store", boolean},
		prop{"kind", enum("fact", "episode")},
		prop{"type", enum(types...)},
		prop{"importance", percent},
		prop{"reason", text(maxReason)},
	))
}

// captureSchemaWithUpdates is the capture verdict schema when the judge is
// shown stored memories the message may update, labelled labels (C1, C2
// …): the capture schema and, before "reason", an optional "updates" —
// the labels of the ones the message updates, each at most once. Absent:
// the judge says nothing about updates (the rule decides); [] none.
func captureSchemaWithUpdates(types, labels []string) json.RawMessage {
	items := fmt.Sprintf(`{"type":"array","items":%s,"maxItems":%d,"uniqueItems":true}`, enum(labels...), len(labels))
	return json.RawMessage(object([]string{"store", "kind", "type", "importance", "reason"},
		prop{"store", boolean},
		prop{"kind", enum("fact", "episode")},
		prop{"type", enum(types...)},
		prop{"importance", percent},
		prop{"updates", items},
		prop{"reason", text(maxReason)},
	))
}

// triageSchemaFor is the triage verdict schema for an item labelled
// itemType: either {"verdict": keep|echo|roleplay_scene, "reason",
// "confidence"} or {"verdict": "retype", "retype_to" (one of the labels
// other than itemType), "reason", "confidence"}; confidence 0–100.
func triageSchemaFor(itemType string, types []string) json.RawMessage {
	var others []string
	for _, t := range types {
		if t != itemType {
			others = append(others, t)
		}
	}
	plain := object([]string{"verdict", "reason", "confidence"},
		prop{"verdict", enum(VerdictKeep, VerdictEcho, VerdictRoleplay)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent},
	)
	if len(others) == 0 {
		return json.RawMessage(plain)
	}
	retype := object([]string{"verdict", "retype_to", "reason", "confidence"},
		prop{"verdict", enum(VerdictRetype)},
		prop{"retype_to", enum(others...)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent},
	)
	return json.RawMessage(`{"anyOf":[` + plain + `,` + retype + `]}`)
}

// promotionSchema is sent as `format` for promotion reviews: promote with
// scope "global", keep_warm with a project:NAME or domain:NAME scope, or
// reject, where wording and scope may be empty; confidence 0–100.
var promotionSchema = json.RawMessage(`{"anyOf":[` +
	object([]string{"verdict", "wording", "scope", "reason", "confidence"},
		prop{"verdict", enum("promote")},
		prop{"wording", fmt.Sprintf(`{"type":"string","minLength":1,"maxLength":%d}`, maxWording)},
		prop{"scope", enum("global")},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent}) + `,` +
	object([]string{"verdict", "wording", "scope", "reason", "confidence"},
		prop{"verdict", enum("keep_warm")},
		prop{"wording", fmt.Sprintf(`{"type":"string","minLength":1,"maxLength":%d}`, maxWording)},
		prop{"scope", text(maxScope)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent}) + `,` +
	object([]string{"verdict", "wording", "scope", "reason", "confidence"},
		prop{"verdict", enum("reject")},
		prop{"wording", text(maxWording)},
		prop{"scope", text(maxScope)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent}) +
	`]}`)

// captureSchema and triageSchema are the schemas for the default labels
// (a triage of "milestone"): the prompt document (prompt.go) and the tests
// use them.
var (
	captureSchema        = captureSchemaFor(DefaultTypes)
	captureUpdatesSchema = captureSchemaWithUpdates(DefaultTypes, []string{"C1", "C2", "C3"})
	triageSchema         = triageSchemaFor("milestone", DefaultTypes)
)

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
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	AnyOf                []*schema          `json:"anyOf"`
	Items                *schema            `json:"items"`
	MaxItems             *int               `json:"maxItems"`
	UniqueItems          bool               `json:"uniqueItems"`
}

func mustSchema(raw json.RawMessage) *schema {
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		panic(fmt.Sprintf("judge: built-in schema does not parse: %v", err))
	}
	return &s
}

// validateAnswer checks that content is exactly one JSON value that
// satisfies raw (types, enums, required fields, bounds, lengths, no extra
// fields, one branch of an anyOf).
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
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("answer: want an object, got %s", jsonKind(v))
	}
	return obj, nil
}

func (s *schema) check(path string, v any) error {
	name := path
	if name == "" {
		name = "answer"
	}
	if len(s.AnyOf) > 0 {
		// The branches differ in the verdict: report the error of the
		// branch whose verdict matched, else the first.
		var first error
		for _, alt := range s.AnyOf {
			err := alt.check(path, v)
			if err == nil {
				return nil
			}
			if first == nil {
				first = err
			}
			if obj, ok := v.(map[string]any); ok {
				if vs, ok := alt.Properties["verdict"]; ok && slices.Contains(vs.Enum, fmt.Sprint(obj["verdict"])) {
					return err
				}
			}
		}
		return first
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
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength {
			return fmt.Errorf("%s: %q is shorter than %d characters", name, str, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return fmt.Errorf("%s: %d characters, more than the %d allowed", name, n, *s.MaxLength)
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %s", name, jsonKind(v))
		}
		if s.MaxItems != nil && len(arr) > *s.MaxItems {
			return fmt.Errorf("%s: %d items, more than the %d allowed", name, len(arr), *s.MaxItems)
		}
		for i, x := range arr {
			if s.Items != nil {
				if err := s.Items.check(fmt.Sprintf("%s[%d]", name, i), x); err != nil {
					return err
				}
			}
			if s.UniqueItems {
				for _, y := range arr[:i] {
					if fmt.Sprint(x) == fmt.Sprint(y) {
						return fmt.Errorf("%s: %v is listed twice", name, x)
					}
				}
			}
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want true or false, got %s", name, jsonKind(v))
		}
	case "number", "integer":
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("%s: want a number, got %s", name, jsonKind(v))
		}
		f, err := n.Float64()
		if err != nil {
			return fmt.Errorf("%s: %q is not a finite number", name, n)
		}
		if s.Type == "integer" {
			if _, err := n.Int64(); err != nil {
				return fmt.Errorf("%s: %s is not a whole number", name, n)
			}
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

// NamedSchema is one of the schemas the judge sends as `format`, named by
// what it judges.
type NamedSchema struct {
	Name   string
	Schema json.RawMessage
}

// Schemas are the schemas sent for the default labels, exactly as sent:
// `memtrace help judge` prints them, so that a person pointing memtrace at
// their own model sees what it must answer.
func Schemas() []NamedSchema {
	return []NamedSchema{
		{"capture verdict (ingest/import/mcp --judge)", bytes.Clone(captureSchema)},
		{"capture verdict when stored memories the message may update are shown (here three: C1, C2, C3)", bytes.Clone(captureUpdatesSchema)},
		{"triage verdict (triage --type milestone)", bytes.Clone(triageSchema)},
		{"promotion review (heartbeat --review)", bytes.Clone(promotionSchema)},
	}
}
