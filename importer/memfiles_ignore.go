package importer

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A small .gitignore matcher for the memory-file walk: the patterns of
// gitignore(5) that projects write — comments, blank lines, "!" negation,
// a trailing "/" for directories only, a leading or inner "/" anchoring the
// pattern to the .gitignore's folder, "*", "?", "[…]" and "**". Each folder's
// .gitignore applies below it, later lines and deeper files winning. Written
// here rather than taken from a library: it is some eighty lines, the walk
// needs no more, and go.mod stays as it is.

type ignoreRule struct {
	base    string // the folder of the .gitignore, slash-separated, relative to the walk's root ("" for the root)
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

type ignoreSet struct{ rules []ignoreRule }

// load adds the rules of dir/.gitignore (rel is dir relative to the root).
func (s *ignoreSet) load(dir, rel string) {
	fi, err := os.Lstat(filepath.Join(dir, ".gitignore"))
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	f, err := os.Open(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: rel}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		line = strings.TrimPrefix(line, `\`)
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		if line == "" {
			continue
		}
		expr := globRegexp(line)
		if !anchored {
			expr = "(?:.*/)?" + expr
		}
		re, err := regexp.Compile("^" + expr + "$")
		if err != nil {
			continue
		}
		r.re = re
		s.rules = append(s.rules, r)
	}
}

// ignored reports whether the path rel (slash-separated, relative to the
// root) is ignored.
func (s *ignoreSet) ignored(rel string, dir bool) bool {
	out := false
	for _, r := range s.rules {
		p := rel
		if r.base != "" {
			var ok bool
			if p, ok = strings.CutPrefix(rel, r.base+"/"); !ok {
				continue
			}
		}
		if r.dirOnly && !dir {
			continue
		}
		if r.re.MatchString(p) {
			out = !r.negate
		}
	}
	return out
}

// globRegexp turns a gitignore glob into a regular expression.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.HasPrefix(g[i:], "/**/"):
			b.WriteString("/(?:.*/)?")
			i += 3
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "/**"):
			b.WriteString("/.*")
			i += 2
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			if j := strings.IndexByte(g[i:], ']'); j > 0 {
				class := g[i+1 : i+j]
				if strings.HasPrefix(class, "!") {
					class = "^" + class[1:]
				}
				b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
				i += j
				continue
			}
			b.WriteString(`\[`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}
