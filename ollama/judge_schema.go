package ollama

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
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
//     grammar keeps the schema's order): Properties is a map, so every
//     object also lists its properties in PropertyOrder, the order
//     jsonschema.Schema marshals them in.
// Every answer is still validated against the same schema here, by the
// library (judge_answer.go), because older servers and some models ignore
// `format`. testdata/format pins the bytes each schema is sent as.

// Limits of the free strings in the schemas, in characters.
const (
	maxReason  = 200
	maxWording = 200
	maxScope   = 80
)

// format is one schema sent as `format`: the bytes sent (and hashed into
// cache keys), and the schema resolved for validating answers.
type format struct {
	raw      json.RawMessage
	resolved *jsonschema.Resolved
}

// newFormat marshals and resolves one of the schemas below; they are
// built in, so a failure is a bug.
func newFormat(s *jsonschema.Schema) *format {
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("ollama: built-in schema does not marshal: %v", err))
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("ollama: built-in schema does not resolve: %v", err))
	}
	return &format{raw: raw, resolved: resolved}
}

// prop is one property of an object schema, in order.
type prop struct {
	name   string
	schema *jsonschema.Schema
}

// object is a closed object (no other properties) of props, in order.
// Each call builds new schemas: the library wants a tree, so no two
// places may share one.
func object(required []string, props ...prop) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		Required:             required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, // false
	}
	for _, p := range props {
		s.Properties[p.name] = p.schema
		s.PropertyOrder = append(s.PropertyOrder, p.name)
	}
	return s
}

func enum(values ...string) *jsonschema.Schema {
	e := make([]any, len(values))
	for i, v := range values {
		e[i] = v
	}
	return &jsonschema.Schema{Type: "string", Enum: e}
}

func text(maxLen int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(maxLen)}
}

// wording is a string that may not be empty.
func wording() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxWording)}
}

func percent() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(100.0)}
}

func boolean() *jsonschema.Schema { return &jsonschema.Schema{Type: "boolean"} }

// captureSchemaFor is the capture verdict schema for the allowed labels:
// {"store", "kind", "type" (one of types), "importance" (0–100),
// "reason"}.
func captureSchemaFor(types []string) *format {
	return newFormat(object([]string{"store", "kind", "type", "importance", "reason"},
		prop{"store", boolean()},
		prop{"kind", enum("fact", "episode")},
		prop{"type", enum(types...)},
		prop{"importance", percent()},
		prop{"reason", text(maxReason)},
	))
}

// captureSchemaWithUpdates is the capture verdict schema when the judge is
// shown stored memories the message may update, labelled labels (C1, C2
// …): the capture schema and, before "reason", an optional "updates" —
// the labels of the ones the message updates, each at most once. Absent:
// the judge says nothing about updates (the rule decides); [] none.
func captureSchemaWithUpdates(types, labels []string) *format {
	updates := &jsonschema.Schema{Type: "array", Items: enum(labels...), MaxItems: jsonschema.Ptr(len(labels)), UniqueItems: true}
	return newFormat(object([]string{"store", "kind", "type", "importance", "reason"},
		prop{"store", boolean()},
		prop{"kind", enum("fact", "episode")},
		prop{"type", enum(types...)},
		prop{"importance", percent()},
		prop{"updates", updates},
		prop{"reason", text(maxReason)},
	))
}

// triageSchemaFor is the triage verdict schema for an item labelled
// itemType: either {"verdict": keep|echo|roleplay_scene, "reason",
// "confidence"} or {"verdict": "retype", "retype_to" (one of the labels
// other than itemType), "reason", "confidence"}; confidence 0–100.
func triageSchemaFor(itemType string, types []string) *format {
	var others []string
	for _, t := range types {
		if t != itemType {
			others = append(others, t)
		}
	}
	plain := object([]string{"verdict", "reason", "confidence"},
		prop{"verdict", enum(VerdictKeep, VerdictEcho, VerdictRoleplay)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent()},
	)
	if len(others) == 0 {
		return newFormat(plain)
	}
	retype := object([]string{"verdict", "retype_to", "reason", "confidence"},
		prop{"verdict", enum(VerdictRetype)},
		prop{"retype_to", enum(others...)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent()},
	)
	return newFormat(&jsonschema.Schema{AnyOf: []*jsonschema.Schema{plain, retype}})
}

// promotionSchema is sent as `format` for promotion reviews: promote with
// scope "global", keep_warm with a project:NAME or domain:NAME scope, or
// reject, where wording and scope may be empty; confidence 0–100.
var promotionSchema = newFormat(&jsonschema.Schema{AnyOf: []*jsonschema.Schema{
	object([]string{"verdict", "wording", "scope", "reason", "confidence"},
		prop{"verdict", enum("promote")},
		prop{"wording", wording()},
		prop{"scope", enum("global")},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent()}),
	object([]string{"verdict", "wording", "scope", "reason", "confidence"},
		prop{"verdict", enum("keep_warm")},
		prop{"wording", wording()},
		prop{"scope", text(maxScope)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent()}),
	object([]string{"verdict", "wording", "scope", "reason", "confidence"},
		prop{"verdict", enum("reject")},
		prop{"wording", text(maxWording)},
		prop{"scope", text(maxScope)},
		prop{"reason", text(maxReason)},
		prop{"confidence", percent()}),
}})

// probeSchema is the format of the check's one chat (client_probe.go).
var probeSchema = newFormat(object([]string{"ok"}, prop{"ok", boolean()}))

// captureSchema and triageSchema are the schemas for the default labels
// (a triage of "milestone"): the prompt hash (judge_prompt.go), Schemas
// and the tests use them.
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
		{"capture verdict (ingest/import/mcp --judge)", bytes.Clone(captureSchema.raw)},
		{"capture verdict when stored memories the message may update are shown (here three: C1, C2, C3)", bytes.Clone(captureUpdatesSchema.raw)},
		{"triage verdict (triage --type milestone)", bytes.Clone(triageSchema.raw)},
		{"promotion review (heartbeat --review)", bytes.Clone(promotionSchema.raw)},
	}
}
