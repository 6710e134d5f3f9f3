package golden

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"memtrace/engine"
)

// Set is one golden probe file.
type Set struct {
	Name        string
	Description string
	// File is the path the set was loaded from.
	File string
	// Fixture is the message JSONL to ingest into a fresh database before the
	// run, resolved relative to File's directory; "" for none.
	Fixture  string
	Defaults Defaults
	Probes   []Probe
}

// Defaults apply to every probe that does not set the field itself.
type Defaults struct {
	At time.Time // zero: the runner's clock shifted by AtOffset
	// AtOffset is defaults.at written as an offset ("now", "-1d"), from
	// the runner's clock (the database's, pinned or not).
	AtOffset time.Duration
	K        int // 0: the engine's default
	Budget   int // 0: the engine's default
	Session  string
	Project  string
}

// Probe is one query and what its recall must (not) contain.
type Probe struct {
	ID    string
	Line  int // where the probe starts in the file
	Query string
	Note  string
	// At is the probe's own RFC 3339 time; when AtRelative is set, the time
	// is Defaults.At (or the runner's clock) shifted by AtOffset instead.
	At         time.Time
	AtOffset   time.Duration
	AtRelative bool
	Session    string
	Project    string
	K          int
	Budget     int
	Expect     Expect
}

// Expect is what a probe asserts about its recall.
type Expect struct {
	Present []Selector // each must match a budget survivor
	Absent  []Selector // none may match a budget survivor
	// Only makes the probe a precision probe: every budget survivor must
	// match one of these selectors; a survivor that matches none is a stray
	// (MetricStraySurvivors).
	Only []Selector
	// Limits; nil means unchecked.
	MaxGuaranteed  *int
	MinSurvivors   *int
	MaxPromptChars *int
	// Relevant grades memories for ranking metrics (grade > 0, higher is
	// more relevant), in file order.
	Relevant     []Graded
	MinRecallAtK *float64
	MinMRR       *float64
	MinNDCG      *float64
}

// Graded is one entry of `relevant`.
type Graded struct {
	Selector Selector
	Grade    float64
}

// ParseError is one problem in a golden file, with the line it is on.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Msg)
}

// Load reads and parses a golden set file.
func Load(path string) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read golden set: %w", err)
	}
	return Parse(data, path)
}

// Parse parses a golden set. path names the file in errors and anchors a
// relative fixture. Every problem found is reported, each with its line;
// the returned error joins *ParseError values.
func Parse(data []byte, path string) (*Set, error) {
	p := &parser{file: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &ParseError{File: path, Msg: "not valid YAML: " + err.Error()}
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{File: path, Msg: "empty file: a golden set needs name and probes"}
	}
	set := p.set(doc.Content[0])
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return set, nil
}

type parser struct {
	file string
	errs []error
}

func (p *parser) errf(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &ParseError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// fields walks a mapping node, calling fn for every known key and reporting
// unknown and repeated keys.
func (p *parser) fields(n *yaml.Node, what string, known []string, fn func(key string, k, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.errf(n, "%s must be a mapping", what)
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if first, dup := seen[k.Value]; dup {
			p.errf(k, "%s: key %q repeated (first at line %d)", what, k.Value, first)
			continue
		}
		seen[k.Value] = k.Line
		ok := false
		for _, name := range known {
			if k.Value == name {
				ok = true
				break
			}
		}
		if !ok {
			p.errf(k, "%s: unknown key %q (known: %s)", what, k.Value, strings.Join(known, ", "))
			continue
		}
		fn(k.Value, k, v)
	}
}

func (p *parser) set(root *yaml.Node) *Set {
	set := &Set{File: p.file}
	var probes *yaml.Node
	p.fields(root, "golden set", []string{"name", "description", "fixture", "defaults", "probes"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			set.Name = p.str(v, "name")
		case "description":
			set.Description = p.str(v, "description")
		case "fixture":
			set.Fixture = p.fixture(v)
		case "defaults":
			set.Defaults = p.defaults(v)
		case "probes":
			probes = v
		}
	})
	if root.Kind != yaml.MappingNode {
		return set
	}
	if set.Name == "" {
		p.errf(root, "golden set: name is required")
	}
	if probes == nil {
		p.errf(root, "golden set: probes is required")
		return set
	}
	if probes.Kind != yaml.SequenceNode {
		p.errf(probes, "probes must be a list")
		return set
	}
	firstLine := map[string]int{}
	for _, n := range probes.Content {
		pr, ok := p.probe(n)
		if !ok {
			continue
		}
		if first, dup := firstLine[pr.ID]; dup {
			p.errf(n, "duplicate probe id %s (first at line %d)", pr.ID, first)
			continue
		}
		firstLine[pr.ID] = pr.Line
		set.Probes = append(set.Probes, pr)
	}
	if len(probes.Content) == 0 {
		p.errf(probes, "probes is empty: a golden set needs at least one probe")
	}
	return set
}

func (p *parser) str(v *yaml.Node, what string) string {
	if v.Kind != yaml.ScalarNode {
		p.errf(v, "%s must be a string", what)
		return ""
	}
	return v.Value
}

func (p *parser) positiveInt(v *yaml.Node, what string) int {
	n, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil || n <= 0 {
		p.errf(v, "%s must be a positive integer, not %q", what, v.Value)
		return 0
	}
	return n
}

func (p *parser) nonNegativeInt(v *yaml.Node, what string) *int {
	n, err := strconv.Atoi(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil || n < 0 {
		p.errf(v, "%s must be an integer ≥ 0, not %q", what, v.Value)
		return nil
	}
	return &n
}

func (p *parser) fraction(v *yaml.Node, what string) *float64 {
	f, err := strconv.ParseFloat(v.Value, 64)
	if v.Kind != yaml.ScalarNode || err != nil || !(f >= 0 && f <= 1) {
		p.errf(v, "%s must be a number from 0 to 1, not %q", what, v.Value)
		return nil
	}
	return &f
}

func (p *parser) fixture(v *yaml.Node) string {
	rel := p.str(v, "fixture")
	if rel == "" {
		return ""
	}
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(p.file), rel)
	}
	if st, err := os.Stat(path); err != nil {
		p.errf(v, "fixture %q not found at %s (fixture paths are relative to the set file)", rel, path)
	} else if st.IsDir() {
		p.errf(v, "fixture %q is a directory (%s), not a message JSONL file", rel, path)
	}
	return path
}

func (p *parser) defaults(n *yaml.Node) Defaults {
	var d Defaults
	p.fields(n, "defaults", []string{"at", "k", "budget", "session", "project"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "at":
			w, err := engine.ParseWhen(v.Value)
			if err != nil {
				p.errf(v, "defaults.at: %v", engine.ErrorMessage(err))
			}
			d.At, d.AtOffset = w.Abs, w.Offset
		case "k":
			d.K = p.positiveInt(v, "defaults.k")
		case "budget":
			d.Budget = p.positiveInt(v, "defaults.budget")
		case "session":
			d.Session = p.str(v, "defaults.session")
		case "project":
			d.Project = p.str(v, "defaults.project")
		}
	})
	return d
}

func (p *parser) probe(n *yaml.Node) (Probe, bool) {
	pr := Probe{Line: n.Line}
	var idNode, expect *yaml.Node
	p.fields(n, "probe", []string{"id", "query", "note", "at", "session", "project", "k", "budget", "expect"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "id":
			idNode = v
			pr.ID = p.str(v, "probe id")
		case "query":
			pr.Query = p.str(v, "query")
		case "note":
			pr.Note = p.str(v, "note")
		case "at":
			w, err := engine.ParseWhen(v.Value)
			if err != nil {
				p.errf(v, "at: %v", engine.ErrorMessage(err))
			}
			pr.AtOffset, pr.AtRelative, pr.At = w.Offset, w.Relative, w.Abs
		case "session":
			pr.Session = p.str(v, "session")
		case "project":
			pr.Project = p.str(v, "project")
		case "k":
			pr.K = p.positiveInt(v, "k")
		case "budget":
			pr.Budget = p.positiveInt(v, "budget")
		case "expect":
			expect = v
		}
	})
	if n.Kind != yaml.MappingNode {
		return pr, false
	}
	switch {
	case idNode == nil:
		p.errf(n, "probe: id is required (a stable, unique name)")
	case pr.ID == "" || strings.IndexFunc(pr.ID, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		p.errf(idNode, "probe id %q must be non-empty and contain no spaces", pr.ID)
	}
	if strings.TrimSpace(pr.Query) == "" {
		p.errf(n, "probe %s: query is required", pr.ID)
	}
	if expect == nil {
		p.errf(n, "probe %s: expect is required", pr.ID)
	} else {
		pr.Expect = p.expect(expect, pr.ID)
	}
	// A probe with an id takes part in the duplicate check even when its
	// body has errors, so every problem is reported in one pass.
	return pr, pr.ID != ""
}

func (p *parser) expect(n *yaml.Node, id string) Expect {
	var e Expect
	var relevantNode *yaml.Node
	var rankingNodes []*yaml.Node
	p.fields(n, "expect", []string{"present", "absent", "only", "max_guaranteed", "min_survivors", "max_prompt_chars",
		"relevant", "min_recall_at_k", "min_mrr", "min_ndcg"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "present":
			e.Present = p.selectors(v, "present")
		case "absent":
			e.Absent = p.selectors(v, "absent")
		case "only":
			e.Only = p.selectors(v, "only")
			if v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
				p.errf(v, "probe %s: only needs at least one selector, e.g. only: [\"key:m0075\"]", id)
			}
		case "max_guaranteed":
			e.MaxGuaranteed = p.nonNegativeInt(v, key)
		case "min_survivors":
			e.MinSurvivors = p.nonNegativeInt(v, key)
		case "max_prompt_chars":
			e.MaxPromptChars = p.nonNegativeInt(v, key)
		case "relevant":
			relevantNode = v
			e.Relevant = p.relevant(v)
		case "min_recall_at_k":
			e.MinRecallAtK = p.fraction(v, key)
			rankingNodes = append(rankingNodes, k)
		case "min_mrr":
			e.MinMRR = p.fraction(v, key)
			rankingNodes = append(rankingNodes, k)
		case "min_ndcg":
			e.MinNDCG = p.fraction(v, key)
			rankingNodes = append(rankingNodes, k)
		}
	})
	if relevantNode == nil {
		for _, k := range rankingNodes {
			p.errf(k, "probe %s: %s needs relevant: {selector: grade, …}", id, k.Value)
		}
	}
	return e
}

func (p *parser) selectors(v *yaml.Node, what string) []Selector {
	nodes := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		nodes = v.Content
	}
	var out []Selector
	for _, n := range nodes {
		if n.Kind != yaml.ScalarNode {
			p.errf(n, "%s: each selector must be a string like \"key:m0012\"", what)
			continue
		}
		s, err := ParseSelector(n.Value)
		if err != nil {
			p.errf(n, "%s: %v", what, err)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (p *parser) relevant(v *yaml.Node) []Graded {
	if v.Kind != yaml.MappingNode {
		p.errf(v, "relevant must be a mapping of selector to grade, e.g. {\"key:m0012\": 3}")
		return nil
	}
	var out []Graded
	seen := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, g := v.Content[i], v.Content[i+1]
		s, err := ParseSelector(k.Value)
		if err != nil {
			p.errf(k, "relevant: %v", err)
			continue
		}
		if first, dup := seen[s.String()]; dup {
			p.errf(k, "relevant: selector %s repeated (first at line %d)", s, first)
			continue
		}
		seen[s.String()] = k.Line
		grade, err := strconv.ParseFloat(g.Value, 64)
		if g.Kind != yaml.ScalarNode || err != nil || grade <= 0 {
			p.errf(g, "relevant: grade of %s must be a number > 0, not %q", s, g.Value)
			continue
		}
		out = append(out, Graded{Selector: s, Grade: grade})
	}
	if len(v.Content) == 0 {
		p.errf(v, "relevant is empty")
	}
	return out
}

// Time returns when the probe's recall happens: its own time, or the
// set's default (or now, when the set has none) shifted by its offset.
func (pr Probe) Time(d Defaults, now time.Time) time.Time {
	if !pr.AtRelative && !pr.At.IsZero() {
		return pr.At
	}
	return d.Base(now).Add(pr.AtOffset)
}

// Base is the time the set's offsets count from: defaults.at, or the
// runner's clock now shifted by a relative defaults.at.
func (d Defaults) Base(now time.Time) time.Time {
	if !d.At.IsZero() {
		return d.At
	}
	return now.Add(d.AtOffset).UTC()
}
