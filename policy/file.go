package policy

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"memtrace/engine"
)

// Decode reads a policy file strictly: sections and keys of the schema
// only (an unknown one is an error with its line and the valid keys),
// each value in its range. A key the file leaves out keeps its default.
func Decode(data []byte) (engine.Config, error) {
	cfg := engine.DefaultConfig()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return cfg, fmt.Errorf("policy: %w", err)
	}
	if len(doc.Content) == 0 {
		return cfg, nil // an empty file: the defaults
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return cfg, fmt.Errorf("policy line %d: expected sections (%s), got a %s", root.Line, strings.Join(sections(), ", "), kindName(root))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		sec, body := root.Content[i], root.Content[i+1]
		if !hasSection(sec.Value) {
			return cfg, fmt.Errorf("policy line %d: unknown section %q; valid sections: %s", sec.Line, sec.Value, strings.Join(sections(), ", "))
		}
		if body.Kind != yaml.MappingNode {
			return cfg, fmt.Errorf("policy line %d: section %s holds keys, got a %s", body.Line, sec.Value, kindName(body))
		}
		for j := 0; j+1 < len(body.Content); j += 2 {
			k, v := body.Content[j], body.Content[j+1]
			key := sec.Value + "." + k.Value
			f, ok := lookup(key)
			if !ok {
				return cfg, fmt.Errorf("policy line %d: unknown key %q; valid keys: %s", k.Line, key, strings.Join(Keys(), ", "))
			}
			if line, dup := seen[key]; dup {
				return cfg, fmt.Errorf("policy line %d: %s is already set at line %d", k.Line, key, line)
			}
			seen[key] = k.Line
			if v.Kind != yaml.ScalarNode {
				return cfg, fmt.Errorf("policy line %d: %s takes one value, got a %s", v.Line, key, kindName(v))
			}
			x, err := f.parse(v.Value)
			if err != nil {
				return cfg, fmt.Errorf("policy line %d: %w", v.Line, err)
			}
			f.set(&cfg, x)
		}
	}
	return cfg, nil
}

// ReadFile decodes the policy file at path.
func ReadFile(path string) (engine.Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return engine.Config{}, fmt.Errorf("read policy: %w", err)
	}
	cfg, err := Decode(data)
	if err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// Set changes one key of cfg (a sweep's value); the value is spelt and
// checked as in the file.
func Set(cfg *engine.Config, key, value string) error {
	f, ok := lookup(key)
	if !ok {
		return fmt.Errorf("unknown policy key %q; valid keys: %s", key, strings.Join(Keys(), ", "))
	}
	x, err := f.parse(value)
	if err != nil {
		return err
	}
	f.set(cfg, x)
	return nil
}

// Encode writes cfg as a policy file, every key in schema order: the
// canonical text a database records.
func Encode(cfg engine.Config) []byte {
	var b bytes.Buffer
	b.WriteString("# memtrace policy (schema: memtrace help policy)\n")
	eachField(&b, func(name string, f *field) {
		fmt.Fprintf(&b, "  %s: %s\n", name, f.format(f.get(&cfg)))
	})
	return b.Bytes()
}

// Value is one key's value as the file spells it.
type Value struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Phase Phase  `json:"phase"`
}

// Values lists cfg key by key, in schema order.
func Values(cfg engine.Config) []Value {
	vs := make([]Value, len(fields))
	for i := range fields {
		f := &fields[i]
		vs[i] = Value{Key: f.Key, Value: f.format(f.get(&cfg)), Phase: f.Phase}
	}
	return vs
}

// Change is one key whose value differs between two policies.
type Change struct {
	Key   string `json:"key"`
	A     string `json:"a"`
	B     string `json:"b"`
	Phase Phase  `json:"phase"`
}

// Diff lists the keys whose values differ from a to b, in schema order.
func Diff(a, b engine.Config) []Change {
	var cs []Change
	for i := range fields {
		f := &fields[i]
		va, vb := f.format(f.get(&a)), f.format(f.get(&b))
		if va != vb {
			cs = append(cs, Change{Key: f.Key, A: va, B: vb, Phase: f.Phase})
		}
	}
	return cs
}

// eachField calls fn with each field and its name within its section,
// in schema order, writing a "section:" line to w before each section.
func eachField(w io.Writer, fn func(name string, f *field)) {
	sec := ""
	for i := range fields {
		s, name, _ := strings.Cut(fields[i].Key, ".")
		if s != sec {
			fmt.Fprintf(w, "%s:\n", s)
			sec = s
		}
		fn(name, &fields[i])
	}
}

func sections() []string {
	var ss []string
	for _, k := range Keys() {
		s, _, _ := strings.Cut(k, ".")
		if len(ss) == 0 || ss[len(ss)-1] != s {
			ss = append(ss, s)
		}
	}
	return ss
}

func hasSection(s string) bool {
	for _, x := range sections() {
		if x == s {
			return true
		}
	}
	return false
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "value"
}
