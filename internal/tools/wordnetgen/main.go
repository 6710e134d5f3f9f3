// Command wordnetgen compiles Princeton WordNet 3.x's data files into the
// compact table engine/wordnet embeds (wordnet.tsv). It is run by
// `go generate ./engine/wordnet`, never at build or test time, and reads
// only local files: the Debian package wordnet-base puts them in
// /usr/share/wordnet (`apt-get download wordnet-base && dpkg -x
// wordnet-base_*.deb DIR` gives DIR/usr/share/wordnet without installing).
//
//	go run ./internal/tools/wordnetgen -dir /usr/share/wordnet -out engine/wordnet/wordnet.tsv
//
// What it keeps (the format is in engine/wordnet's package comment): every
// synset of the four parts of speech, as a line of its single-word lemmas
// (lower-case ASCII letters only: no collocations, no hyphens, no digits)
// with each lemma's sense rank from index.POS, and its direct hypernyms and
// instance hypernyms as line numbers; the exception lists (*.exc) whose
// words are single words, for the morphology; the antonymy between
// synsets (WordNet's "!" pointers). Glosses, examples, verb frames and
// the other pointers are dropped.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

var posFiles = []struct{ pos, file string }{{"n", "noun"}, {"v", "verb"}, {"a", "adj"}, {"r", "adv"}}

type synset struct {
	pos    string
	offset string
	words  []string
	hyps   []ref
	ants   []ref // synsets a lemma of this one is a direct antonym of
	line   int
}

type ref struct{ pos, offset string }

func main() {
	dir := flag.String("dir", envOr("WORDNET_DIR", "/usr/share/wordnet"), "directory of WordNet's data.* and index.* files")
	out := flag.String("out", "wordnet.tsv", "table to write")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "wordnetgen:", err)
		fmt.Fprintln(os.Stderr, "get the files with: apt-get download wordnet-base && dpkg -x wordnet-base_*.deb /tmp/wn, then -dir /tmp/wn/usr/share/wordnet")
		os.Exit(1)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func run(dir, out string) error {
	var all []*synset
	byKey := map[ref]*synset{}
	for _, pf := range posFiles {
		ss, err := readData(filepath.Join(dir, "data."+pf.file), pf.pos)
		if err != nil {
			return err
		}
		for _, s := range ss {
			byKey[ref{s.pos, s.offset}] = s
		}
		all = append(all, ss...)
	}
	for i, s := range all {
		s.line = i
	}
	rank := map[ref]map[string]int{} // synset → lemma → sense rank
	for _, pf := range posFiles {
		if err := readIndex(filepath.Join(dir, "index."+pf.file), pf.pos, rank); err != nil {
			return err
		}
	}
	var b strings.Builder
	b.WriteString("# Princeton WordNet 3.0 (LICENSE beside this file), compiled by internal/tools/wordnetgen; do not edit.\n")
	for _, s := range all {
		b.WriteString(s.pos)
		b.WriteByte('\t')
		for i, w := range s.words {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
			if r := rank[ref{s.pos, s.offset}][w]; r > 1 {
				b.WriteByte(':')
				b.WriteString(strconv.Itoa(r))
			}
		}
		b.WriteByte('\t')
		first := true
		for _, h := range s.hyps {
			t, ok := byKey[h]
			if !ok {
				return fmt.Errorf("synset %s %s: hypernym %s %s not in the data files", s.pos, s.offset, h.pos, h.offset)
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			b.WriteString(strconv.FormatInt(int64(t.line), 36))
		}
		b.WriteByte('\n')
	}
	for _, pf := range posFiles {
		if err := writeExceptions(&b, filepath.Join(dir, pf.file+".exc"), pf.pos); err != nil {
			return err
		}
	}
	if err := writeAntonyms(&b, all, byKey); err != nil {
		return err
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// readData reads one data.POS file: the synsets in file order.
func readData(path, pos string) ([]*synset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*synset
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // licence header
		}
		if i := strings.Index(line, " | "); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			return nil, fmt.Errorf("%s: short line %q", path, line)
		}
		s := &synset{pos: pos, offset: f[0]}
		n, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: word count %q: %v", path, f[3], err)
		}
		i := 4
		for range n {
			if w, ok := singleWord(f[i]); ok && !contains(s.words, w) {
				s.words = append(s.words, w)
			}
			i += 2
		}
		p, err := strconv.Atoi(f[i])
		if err != nil {
			return nil, fmt.Errorf("%s: pointer count %q: %v", path, f[i], err)
		}
		i++
		for range p {
			sym, off, tpos := f[i], f[i+1], f[i+2]
			if tpos == "s" {
				tpos = "a"
			}
			switch sym {
			case "@", "@i":
				s.hyps = append(s.hyps, ref{tpos, off})
			case "!":
				if !slices.Contains(s.ants, ref{tpos, off}) {
					s.ants = append(s.ants, ref{tpos, off})
				}
			}
			i += 4
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// readIndex records each lemma's sense rank (1 = most frequent) in the
// synsets index.POS lists it under.
func readIndex(path, pos string, rank map[ref]map[string]int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue
		}
		f := strings.Fields(line)
		w, ok := singleWord(f[0])
		if !ok || len(f) < 4 {
			continue
		}
		cnt, _ := strconv.Atoi(f[2])
		ptrs, _ := strconv.Atoi(f[3])
		offs := f[4+ptrs+2:]
		if len(offs) != cnt {
			return fmt.Errorf("%s: %s: %d offsets for %d senses", path, w, len(offs), cnt)
		}
		for r, off := range offs {
			k := ref{pos, off}
			if rank[k] == nil {
				rank[k] = map[string]int{}
			}
			rank[k][w] = r + 1
		}
	}
	return sc.Err()
}

// writeExceptions appends POS's exception list: "x<TAB>pos<TAB>form base…".
func writeExceptions(b *strings.Builder, path, pos string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		form, ok := singleWord(f[0])
		if !ok {
			continue
		}
		var bases []string
		for _, x := range f[1:] {
			if w, ok := singleWord(x); ok && w != form {
				bases = append(bases, w)
			}
		}
		if len(bases) > 0 {
			lines = append(lines, "x\t"+pos+"\t"+form+" "+strings.Join(bases, " ")+"\n")
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		b.WriteString(l)
	}
	return nil
}

// writeAntonyms appends the antonymy of the synsets, one line a synset
// that has any: "!<TAB>A<TAB>B C …", A and B … record numbers in base 36.
// WordNet's antonymy is lexical (allow → disallow, permit → forbid): it
// is kept at the synset level, so every lemma of {permit, allow, let}
// stands against every lemma of {forbid, prohibit, disallow}.
func writeAntonyms(b *strings.Builder, all []*synset, byKey map[ref]*synset) error {
	for _, s := range all {
		if len(s.ants) == 0 {
			continue
		}
		b.WriteString("!\t")
		b.WriteString(strconv.FormatInt(int64(s.line), 36))
		b.WriteByte('\t')
		for i, a := range s.ants {
			t, ok := byKey[a]
			if !ok {
				return fmt.Errorf("synset %s %s: antonym %s %s not in the data files", s.pos, s.offset, a.pos, a.offset)
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.FormatInt(int64(t.line), 36))
		}
		b.WriteByte('\n')
	}
	return nil
}

// singleWord is a lemma as the table keeps it: lower-cased, an adjective's
// syntactic marker ("(a)", "(p)", "(ip)") removed, and only when it is one
// word of ASCII letters.
func singleWord(w string) (string, bool) {
	if i := strings.IndexByte(w, '('); i > 0 {
		w = w[:i]
	}
	w = strings.ToLower(w)
	if len(w) < 2 {
		return "", false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return "", false
		}
	}
	return w, true
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
