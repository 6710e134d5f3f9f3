package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"memtrace/engine"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of the tools' arguments, published in their input schemas.
const (
	// MaxTextChars bounds a captured message or a correction: longer text
	// is a file or a log, not something a person said.
	MaxTextChars = engine.MaxTextChars
	// MaxFieldChars bounds the short fields (session, project, reason …).
	MaxFieldChars = 500
	// MaxK and MaxBudget bound a recall.
	MaxK      = 100
	MaxBudget = 100000
	// MaxFutureSkew is how far in the future a capture's at may lie (clock
	// skew between the agent's machine and this one).
	MaxFutureSkew = "24h"
)

// Roles are the speakers memory_capture accepts.
var Roles = []string{"user", "assistant"}

// bound is one constraint on one property of a tool's input.
type bound func(p *jsonschema.Schema)

func minimum(v float64) bound { return func(p *jsonschema.Schema) { p.Minimum = &v } }
func maximum(v float64) bound { return func(p *jsonschema.Schema) { p.Maximum = &v } }
func maxLen(n int) bound      { return func(p *jsonschema.Schema) { p.MaxLength = &n } }
func oneOf(vs ...string) bound {
	return func(p *jsonschema.Schema) {
		for _, v := range vs {
			p.Enum = append(p.Enum, v)
		}
	}
}
func describe(d string) bound { return func(p *jsonschema.Schema) { p.Description = d } }

// inputSchema infers In's schema (types, descriptions, required) and adds
// the bounds the reflection cannot know.
func inputSchema[In any](bounds map[string][]bound) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(In), err))
	}
	for name, bs := range bounds {
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("input schema of %T: no property %q", *new(In), name))
		}
		for _, b := range bs {
			b(p)
		}
	}
	return s
}

// checkArguments validates a tool call's arguments against the tool's
// input schema and says, naming the field, what is wrong and what to send
// instead. It checks what the schemas of this package use: an object,
// required and unknown properties, the types string, integer, number and
// boolean, minimum, maximum, maxLength and enum.
func checkArguments(s *jsonschema.Schema, raw json.RawMessage) error {
	var args map[string]json.RawMessage
	if len(raw) == 0 || string(raw) == "null" {
		args = map[string]json.RawMessage{}
	} else if err := json.Unmarshal(raw, &args); err != nil {
		return fmt.Errorf("arguments must be a JSON object with the fields %s", fieldList(s))
	}
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			return fmt.Errorf("%s is required: %s", name, s.Properties[name].Description)
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := s.Properties[name]
		if p == nil {
			return fmt.Errorf("unknown argument %q: this tool takes %s", name, fieldList(s))
		}
		if err := checkValue(name, p, args[name]); err != nil {
			return err
		}
	}
	return nil
}

func checkValue(name string, p *jsonschema.Schema, raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("%s: not a JSON value", name)
	}
	got := jsonType(v)
	want := p.Type
	if want == "" && len(p.Types) > 0 {
		want = p.Types[0]
	}
	switch want {
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s must be a string, got %s %s", name, got, clip(raw))
		}
		if p.MaxLength != nil && utf8.RuneCountInString(str) > *p.MaxLength {
			return fmt.Errorf("%s is %d characters long, at most %d are accepted: send a shorter %s", name, utf8.RuneCountInString(str), *p.MaxLength, name)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(str)) {
			return fmt.Errorf("%s %q is not accepted: use one of %s", name, str, enumList(p.Enum))
		}
	case "integer", "number":
		f, ok := v.(float64)
		if !ok {
			return fmt.Errorf("%s must be a%s, got %s %s", name, article(want), got, clip(raw))
		}
		if want == "integer" && f != math.Trunc(f) {
			return fmt.Errorf("%s must be a whole number, got %s", name, clip(raw))
		}
		if p.Minimum != nil && f < *p.Minimum {
			return fmt.Errorf("%s must be at least %g, got %s (leave it out for the default)", name, *p.Minimum, clip(raw))
		}
		if p.Maximum != nil && f > *p.Maximum {
			return fmt.Errorf("%s must be at most %g, got %s", name, *p.Maximum, clip(raw))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s must be true or false, got %s %s", name, got, clip(raw))
		}
	}
	return nil
}

func article(t string) string {
	if t == "integer" {
		return "n integer"
	}
	return " number"
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

func clip(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

func enumList(vs []any) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprint(v))
	}
	return strings.Join(parts, ", ")
}

func fieldList(s *jsonschema.Schema) string {
	var names []string
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// checkArgumentsMiddleware runs checkArguments before the SDK decodes a
// tools/call, so that an agent reads which field is wrong and why instead
// of the validator's internals.
func (s *Server) checkArgumentsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if !ok {
			return next(ctx, method, req)
		}
		schema := s.schemas[p.Name]
		if schema == nil {
			return next(ctx, method, req)
		}
		if err := checkArguments(schema, p.Arguments); err != nil {
			res := &mcp.CallToolResult{}
			res.SetError(fmt.Errorf("%s: %w", p.Name, err))
			return res, nil
		}
		return next(ctx, method, req)
	}
}
