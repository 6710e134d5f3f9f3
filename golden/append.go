package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"memtrace/engine"
)

// A trace becomes a probe: the TUI's Trace tab marks the survivors of a
// recall right or wrong and appends a probe that repeats the recall to a
// set file, so that real agent traffic turns into regression tests.

// NewProbe is a probe made from a trace: the recall it repeats and what the
// curator marked. Present are the survivors marked right, Absent those
// marked wrong.
type NewProbe struct {
	ID               string // "": derived from the query (ProbeID)
	Query            string
	At               time.Time
	Session, Project string
	K, Budget        int // written only where the set's defaults differ
	Present, Absent  []Selector
	Note             string
}

// ProbeID derives a probe id from a query: "trace-" and its first words
// (letters and digits of any script, Hangul included), lower-cased and
// joined by '-', at most 40 runes.
func ProbeID(query string) string {
	var words []string
	n := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if n+len([]rune(w)) > 34 && len(words) > 0 {
			break
		}
		words = append(words, w)
		n += len([]rune(w)) + 1
	}
	if len(words) == 0 {
		return "trace-probe"
	}
	return "trace-" + strings.Join(words, "-")
}

// AppendProbe appends pr to the golden set file at path and returns the id
// it wrote (pr.ID, or one derived from the query, made unique in the set
// with a -2, -3… suffix). A missing file becomes a new set named after it
// (no fixture: it runs against the open database).
//
// It writes safely: a symbolic link at path is refused, not followed; the
// existing text (comments, layout) is kept and the probe is appended under
// `probes:`, which must be the set's last key; the result must load with
// Load and hold the new probe before it replaces the file, atomically
// (a temporary file beside it, renamed over it).
func AppendProbe(path string, pr NewProbe) (string, error) {
	if strings.TrimSpace(pr.Query) == "" {
		return "", engine.Errorf(engine.EINVALID, "the probe has no query")
	}
	if len(pr.Present)+len(pr.Absent) == 0 {
		return "", engine.Errorf(engine.EINVALID, "the probe expects nothing: mark at least one survivor right (present) or wrong (absent)")
	}
	data, mode, err := readSetFile(path)
	if err != nil {
		return "", err
	}
	var set *Set
	indent := "  "
	if data == nil {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		head, err := yamlScalar(name)
		if err != nil {
			return "", err
		}
		data = []byte("# A golden set started from traces in the memtrace TUI. It has no\n# fixture: `memtrace golden run` recalls from the open database.\nname: " + head + "\nprobes:\n")
		set = &Set{File: path}
	} else {
		if set, err = Parse(data, path); err != nil {
			return "", engine.Errorf(engine.EINVALID, "%s does not load as a golden set, so nothing was appended; fix it first: %v", path, err)
		}
		if indent, err = probesIndent(data, path); err != nil {
			return "", err
		}
	}
	pr.ID = uniqueID(set, pr.ID, pr.Query)
	block, err := probeBlock(set, pr, indent)
	if err != nil {
		return "", err
	}
	out := append([]byte(nil), data...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, block...)
	back, err := Parse(out, path)
	if err != nil {
		return "", fmt.Errorf("append probe %s to %s: the result would not load (nothing written): %w", pr.ID, path, err)
	}
	if last := back.Probes[len(back.Probes)-1]; last.ID != pr.ID || len(last.Expect.Present) != len(pr.Present) || len(last.Expect.Absent) != len(pr.Absent) {
		return "", fmt.Errorf("append probe %s to %s: the file read back ends with probe %s, not the new one (nothing written)", pr.ID, path, last.ID)
	}
	if err := writeAtomic(path, out, mode); err != nil {
		return "", err
	}
	return pr.ID, nil
}

// readSetFile reads the set at path, refusing a symbolic link or anything
// but a regular file; nil data: there is no file yet.
func readSetFile(path string) ([]byte, fs.FileMode, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, 0, engine.Errorf(engine.ENOTFOUND, "no directory %s for the new set file %s: create it or choose another path", dir, path)
		}
		return nil, 0o644, nil
	case err != nil:
		return nil, 0, fmt.Errorf("golden set %s: %w", path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, 0, engine.Errorf(engine.EINVALID, "%s is a symbolic link; memtrace does not write through links: choose the file it points to", path)
	case !fi.Mode().IsRegular():
		return nil, 0, engine.Errorf(engine.EINVALID, "%s is not a regular file: choose a .yaml set file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("golden set %s: %w", path, err)
	}
	defer f.Close()
	// The file opened must be the one checked: a link swapped in between
	// is refused too.
	if st, err := f.Stat(); err != nil || !os.SameFile(fi, st) {
		return nil, 0, engine.Errorf(engine.ECONFLICT, "%s changed while it was being opened; try again", path)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(f); err != nil {
		return nil, 0, fmt.Errorf("golden set %s: %w", path, err)
	}
	return b.Bytes(), fi.Mode().Perm(), nil
}

// probesIndent checks that `probes:` is the set's last key, in block
// style, and returns the indentation of its items ("  " for "  - id: …").
func probesIndent(data []byte, path string) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return "", engine.Errorf(engine.EINVALID, "%s is not a YAML mapping", path)
	}
	root := doc.Content[0]
	n := len(root.Content)
	if root.Kind != yaml.MappingNode || n < 2 || root.Content[n-2].Value != "probes" {
		return "", engine.Errorf(engine.EINVALID, "in %s, probes is not the last key, so a probe cannot be appended without rewriting the file: move probes: to the end, or choose another set file", path)
	}
	seq := root.Content[n-1]
	if seq.Kind != yaml.SequenceNode || seq.Style&yaml.FlowStyle != 0 || len(seq.Content) == 0 {
		return "", engine.Errorf(engine.EINVALID, "in %s, probes is not a block list (\"- id: …\" lines), so a probe cannot be appended: write it as one, or choose another set file", path)
	}
	return strings.Repeat(" ", max(0, seq.Content[0].Column-3)), nil
}

func uniqueID(set *Set, id, query string) string {
	if id == "" {
		id = ProbeID(query)
	}
	taken := map[string]bool{}
	for _, p := range set.Probes {
		taken[p.ID] = true
	}
	out := id
	for i := 2; taken[out]; i++ {
		out = fmt.Sprintf("%s-%d", id, i)
	}
	return out
}

// probeYAML is a probe as written, in the order a reader expects.
type probeYAML struct {
	ID      string     `yaml:"id"`
	Query   string     `yaml:"query"`
	Note    string     `yaml:"note,omitempty"`
	At      string     `yaml:"at"`
	Session string     `yaml:"session,omitempty"`
	Project string     `yaml:"project,omitempty"`
	K       int        `yaml:"k,omitempty"`
	Budget  int        `yaml:"budget,omitempty"`
	Expect  expectYAML `yaml:"expect"`
}

type expectYAML struct {
	Present []string `yaml:"present,omitempty"`
	Absent  []string `yaml:"absent,omitempty"`
}

// probeBlock renders pr as one item of the probes list, indented, with a
// comment line that says where it came from. k, budget, session and project
// are written only where the set's defaults would give another value.
func probeBlock(set *Set, pr NewProbe, indent string) ([]byte, error) {
	y := probeYAML{ID: pr.ID, Query: pr.Query, Note: pr.Note, At: pr.At.UTC().Format(time.RFC3339)}
	if pr.Session != set.Defaults.Session {
		y.Session = pr.Session
	}
	if pr.Project != set.Defaults.Project {
		y.Project = pr.Project
	}
	cfg := engine.DefaultConfig()
	def := set.Query(Probe{}, pr.At, cfg)
	if pr.K > 0 && pr.K != def.K {
		y.K = pr.K
	}
	if pr.Budget > 0 && pr.Budget != def.Budget {
		y.Budget = pr.Budget
	}
	for _, s := range pr.Present {
		y.Expect.Present = append(y.Expect.Present, s.String())
	}
	for _, s := range pr.Absent {
		y.Expect.Absent = append(y.Expect.Absent, s.String())
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(y); err != nil {
		return nil, fmt.Errorf("append probe: %w", err)
	}
	enc.Close()
	var out strings.Builder
	fmt.Fprintf(&out, "%s# %s: made from a trace in the memtrace TUI (%d right, %d wrong)\n", indent, pr.ID, len(pr.Present), len(pr.Absent))
	for i, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		lead := "  "
		if i == 0 {
			lead = "- "
		}
		out.WriteString(indent + lead + l + "\n")
	}
	return []byte(out.String()), nil
}

func yamlScalar(s string) (string, error) {
	b, err := yaml.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("append probe: %w", err)
	}
	return strings.TrimRight(string(b), "\n"), nil
}

// writeAtomic writes data to a temporary file beside path and renames it
// over path: a reader sees the old set or the new one, never half of one,
// and a link put at path meanwhile is replaced, not followed.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
