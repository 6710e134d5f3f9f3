// Command gen writes the bilingual demo conversation (testdata/demo.jsonl) and
// its labels (testdata/demo_labels.json). The output is deterministic: running
// it twice yields identical bytes, and `go run ./testdata/gen -check` fails when
// the committed files differ from what the script in conversation.go produces.
//
// Before writing anything it validates the data: ids unique, timestamps
// ascending per session, every label id present, every noise message matching
// its named family, every message that must be stored free of the seed's noise
// patterns (except the noise_with_info ones, which must contain one) and long
// enough to pass a script-aware length floor.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// message is one line of demo.jsonl.
type message struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	Role    string `json:"role"`
	Text    string `json:"text"`
	At      string `json:"at"`
	Project string `json:"project,omitempty"`
}

// labels is demo_labels.json. Field order is the order in the file.
type labels struct {
	Noise              []string            `json:"noise"`
	NoiseReason        map[string]string   `json:"noise_reason"`
	Genuine            []string            `json:"genuine"`
	Facts              []string            `json:"facts"`
	Preferences        []string            `json:"preferences"`
	GenuineMilestones  []string            `json:"genuine_milestones"`
	FalseMilestones    []string            `json:"false_milestones"`
	Corrections        map[string][]string `json:"corrections"`
	LessonStatus       map[string]string   `json:"lesson_status"`
	NotLessons         []string            `json:"not_lessons"`
	Association        map[string][]string `json:"association"`
	Episodes           []string            `json:"episodes"`
	DecayPairs         map[string][]string `json:"decay_pairs"`
	Greetings          []string            `json:"greetings"`
	NoiseWithInfo      []string            `json:"noise_with_info"`
	EscapeSequences    []string            `json:"escape_sequences"`
	MustKeep           []string            `json:"must_keep"`
	Sessions           map[string]string   `json:"sessions"`
	SessionProjects    map[string]string   `json:"session_projects"`
	CorrectionSessions map[string][]string `json:"correction_sessions"`
	Updates            map[string][]string `json:"updates"`
	NearMisses         map[string][]string `json:"near_misses"`
}

// noiseFamily holds the reference pattern for each noise family. The engine's
// own tables are independent; these only check the data is what it claims.
var noiseFamily = map[string]*regexp.Regexp{
	"heartbeat":       regexp.MustCompile(`HEARTBEAT_OK`),
	"no_reply":        regexp.MustCompile(`^NO_REPLY$`),
	"missing":         regexp.MustCompile(`^\[MISSING\]`),
	"gateway_restart": regexp.MustCompile(`GatewayRestart`),
	"error_log":       regexp.MustCompile(`(?i)\berror:.*\b(ENOENT|ETIMEDOUT|ECONNREFUSED)\b`),
	"compacted":       regexp.MustCompile(`(?i)^\[compacted:.*tool outputs? removed`),
	"truncated":       regexp.MustCompile(`(?i)^\[truncated:.*output exceeded`),
	"self_limitation": regexp.MustCompile(`(?i)I don.t have access to|I cannot (summarize|process|access|read|fulfill|browse)|I.m unable to|I don.t have the ability|접근할 수 없|접속할 수 없`),
}

// acks are the pure acknowledgements (compared after trimming and lower-casing,
// trailing punctuation removed).
var acks = map[string]bool{
	"ok": true, "okay": true, "ok thanks": true, "thanks": true, "thank you": true,
	"thx": true, "sure": true, "got it": true,
	"네": true, "넵": true, "알겠습니다": true, "ㅇㅋ": true, "고마워": true, "감사합니다": true,
}

// seedNoise is the seed article's naive L1 pattern list (plus the Korean
// self-limitation phrases). Messages that must be stored may not match it,
// except noise_with_info messages, which must.
var seedNoise = []*regexp.Regexp{
	regexp.MustCompile(`(?i)I don.t have access to`),
	regexp.MustCompile(`(?i)I cannot (summarize|process|access|read|fulfill|browse)`),
	regexp.MustCompile(`(?i)I.m unable to|I don.t have the ability`),
	regexp.MustCompile(`NO_REPLY|HEARTBEAT_OK|\[MISSING\]|GatewayRestart`),
	regexp.MustCompile(`Error:|error:|ENOENT|ETIMEDOUT|ECONNREFUSED`),
	regexp.MustCompile(`(?i)\[compacted:|truncated:`),
	regexp.MustCompile(`접근할 수 없|접속할 수 없`),
}

func ackKey(s string) string {
	return strings.TrimRight(strings.ToLower(strings.TrimSpace(s)), "!.~ ")
}

func hasHangul(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

// longEnough is the script-aware floor a stored message must clear: 50 bytes
// for English, 20 runes when the text contains Hangul.
func longEnough(s string) bool {
	if hasHangul(s) {
		return utf8.RuneCountInString(s) >= 20
	}
	return len(s) >= 50
}

func seedMatch(s string) bool {
	for _, re := range seedNoise {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// build turns the script into messages and labels, validating as it goes.
// The sessions of appendix come after script in the file (so that the ids
// of script's messages, and the ids of the memories an in-order ingest
// makes of them, never change) but their times fall between script's
// sessions: each appended session starts after the previous appended one
// and overlaps no other session.
func build(script, appendix []session) ([]message, labels, error) {
	var msgs []message
	lb := labels{
		NoiseReason:        map[string]string{},
		Corrections:        map[string][]string{},
		LessonStatus:       map[string]string{},
		Association:        map[string][]string{},
		DecayPairs:         map[string][]string{},
		Sessions:           map[string]string{},
		SessionProjects:    map[string]string{},
		CorrectionSessions: map[string][]string{},
		Updates:            map[string][]string{},
		NearMisses:         map[string][]string{},
	}
	keep := map[string]bool{}
	var problems []string
	bad := func(id, format string, a ...any) {
		problems = append(problems, id+": "+fmt.Sprintf(format, a...))
	}
	var prevStart time.Time
	n := 0
	type span struct {
		sid        string
		start, end time.Time
	}
	var spans []span
	for si, s := range append(slices.Clone(script), appendix...) {
		sid := fmt.Sprintf("s%02d", si+1)
		if si == len(script) {
			prevStart = time.Time{} // the appendix: in time order among itself
		}
		start, err := time.Parse(time.RFC3339, s.start)
		if err != nil {
			return nil, lb, fmt.Errorf("session %s: %w", sid, err)
		}
		if !start.After(prevStart) {
			bad(sid, "starts at %s, not after the previous session", s.start)
		}
		lb.Sessions[sid] = s.topic
		if s.project != "" {
			lb.SessionProjects[sid] = s.project
		}
		at := start
		for i, t := range s.turns {
			n++
			id := fmt.Sprintf("m%04d", n)
			if i > 0 {
				// 40 s to about 4 min between turns, derived from the text so it is stable.
				at = at.Add(40*time.Second + time.Duration((len(t.text)*7+i*13)%200)*time.Second)
			}
			if !at.After(prevStart) && !(i == 0 && at.Equal(start)) {
				bad(id, "timestamp %s not after the previous session", at)
			}
			msgs = append(msgs, message{ID: id, Session: sid, Role: t.role, Text: t.text,
				At: at.UTC().Format(time.RFC3339), Project: s.project})
			if err := label(&lb, keep, id, sid, t, bad); err != nil {
				return nil, lb, err
			}
		}
		prevStart = at
		spans = append(spans, span{sid, start, at})
	}
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			if !a.end.Before(b.start) && !b.end.Before(a.start) {
				bad(b.sid, "overlaps session %s (%s – %s)", a.sid, a.start.Format(time.RFC3339), a.end.Format(time.RFC3339))
			}
		}
	}
	for name, ids := range lb.Updates {
		if len(ids) != 2 {
			bad(name, "an update is one old fact and one newer one, got %v", ids)
		}
	}
	for name, ids := range lb.Corrections {
		sessions := map[string]bool{}
		for _, sid := range lb.CorrectionSessions[name] {
			sessions[sid] = true
		}
		switch {
		case len(ids) >= 3 && len(sessions) >= 3:
			lb.LessonStatus[name] = "candidate"
		case len(ids) < 3:
			lb.LessonStatus[name] = "pending"
		default:
			bad(name, "stated %d times but in only %d sessions", len(ids), len(sessions))
		}
	}
	for name, ids := range lb.DecayPairs {
		ep := map[string]bool{}
		for _, id := range lb.Episodes {
			ep[id] = true
		}
		if len(ids) != 2 || !ep[ids[0]] || ep[ids[1]] {
			bad(name, "decay pair must be one episode and one fact, got %v", ids)
		}
	}
	for id := range keep {
		lb.MustKeep = append(lb.MustKeep, id)
	}
	sort.Strings(lb.MustKeep)
	if len(problems) > 0 {
		return nil, lb, fmt.Errorf("demo data invalid:\n  %s", strings.Join(problems, "\n  "))
	}
	return msgs, lb, nil
}

// label records one turn's tags and checks the text against them.
func label(lb *labels, keep map[string]bool, id, sid string, t turn, bad func(id, format string, a ...any)) error {
	mustKeep, withInfo := false, false
	for _, tag := range t.tags {
		name, arg, _ := strings.Cut(tag, ":")
		switch name {
		case "n":
			lb.Noise = append(lb.Noise, id)
			lb.NoiseReason[id] = arg
			checkNoise(id, arg, t.text, bad)
		case "f":
			lb.Genuine = append(lb.Genuine, id)
			lb.Facts = append(lb.Facts, id)
			mustKeep = true
		case "p":
			lb.Genuine = append(lb.Genuine, id)
			lb.Preferences = append(lb.Preferences, id)
			mustKeep = true
		case "nwi":
			lb.Genuine = append(lb.Genuine, id)
			lb.Facts = append(lb.Facts, id)
			lb.NoiseWithInfo = append(lb.NoiseWithInfo, id)
			mustKeep, withInfo = true, true
		case "esc":
			lb.Genuine = append(lb.Genuine, id)
			lb.Facts = append(lb.Facts, id)
			lb.EscapeSequences = append(lb.EscapeSequences, id)
			mustKeep = true
			if !strings.ContainsRune(t.text, 0x1b) {
				bad(id, "escape_sequences message has no ESC byte")
			}
		case "ep":
			lb.Episodes = append(lb.Episodes, id)
			mustKeep = true
		case "gm":
			lb.GenuineMilestones = append(lb.GenuineMilestones, id)
			mustKeep = true
		case "fm":
			lb.FalseMilestones = append(lb.FalseMilestones, id)
		case "c":
			lb.Corrections[arg] = append(lb.Corrections[arg], id)
			cs := lb.CorrectionSessions[arg]
			if len(cs) == 0 || cs[len(cs)-1] != sid {
				lb.CorrectionSessions[arg] = append(cs, sid)
			}
			mustKeep = true
		case "nl":
			lb.NotLessons = append(lb.NotLessons, id)
		case "as":
			lb.Association[arg] = append(lb.Association[arg], id)
			mustKeep = true
		case "gr":
			lb.Greetings = append(lb.Greetings, id)
		case "up":
			// The old fact first, the update second (file order).
			lb.Updates[arg] = append(lb.Updates[arg], id)
		case "nm":
			lb.NearMisses[arg] = append(lb.NearMisses[arg], id)
		case "dp":
			// The episode comes first, the fact second (checked in build).
			if hasTag(t, "ep") {
				lb.DecayPairs[arg] = append([]string{id}, lb.DecayPairs[arg]...)
			} else {
				lb.DecayPairs[arg] = append(lb.DecayPairs[arg], id)
			}
		default:
			return fmt.Errorf("%s: unknown tag %q", id, tag)
		}
	}
	if t.role != "user" && t.role != "assistant" && t.role != "system" && t.role != "tool" {
		bad(id, "role %q", t.role)
	}
	if !utf8.ValidString(t.text) || strings.TrimSpace(t.text) == "" {
		bad(id, "text empty or not UTF-8")
	}
	if mustKeep {
		keep[id] = true
		if !longEnough(t.text) {
			bad(id, "must be stored but is below the length floor: %q", t.text)
		}
		if withInfo != seedMatch(t.text) {
			if withInfo {
				bad(id, "noise_with_info message contains no noise pattern: %q", t.text)
			} else {
				bad(id, "must be stored but matches a seed noise pattern: %q", t.text)
			}
		}
	}
	return nil
}

func hasTag(t turn, tag string) bool {
	for _, x := range t.tags {
		if x == tag {
			return true
		}
	}
	return false
}

func checkNoise(id, family, text string, bad func(id, format string, a ...any)) {
	switch family {
	case "ack":
		if !acks[ackKey(text)] {
			bad(id, "ack %q is not in the acknowledgement list", text)
		}
	case "too_short":
		if utf8.RuneCountInString(text) >= 10 || acks[ackKey(text)] {
			bad(id, "too_short %q is an ack or not short", text)
		}
	default:
		re, ok := noiseFamily[family]
		if !ok {
			bad(id, "unknown noise family %q", family)
			return
		}
		if !re.MatchString(text) {
			bad(id, "noise %q does not match family %s", text, family)
		}
	}
}

func encode(msgs []message, lb labels) (jsonl, lbl []byte, err error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, m := range msgs {
		if err := enc.Encode(m); err != nil {
			return nil, nil, err
		}
	}
	jsonl = b.Bytes()
	var l bytes.Buffer
	enc = json.NewEncoder(&l)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(lb); err != nil {
		return nil, nil, err
	}
	return jsonl, l.Bytes(), nil
}

func main() {
	out := flag.String("out", "testdata", "directory to write demo.jsonl and demo_labels.json into")
	check := flag.Bool("check", false, "do not write; exit 1 if the files in -out differ from the generated ones")
	flag.Parse()

	msgs, lb, err := build(script(), updateSessions())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	jsonl, lbl, err := encode(msgs, lb)
	if err != nil {
		fmt.Fprintln(os.Stderr, "encode:", err)
		os.Exit(1)
	}
	files := []struct {
		name string
		data []byte
	}{{"demo.jsonl", jsonl}, {"demo_labels.json", lbl}}
	for _, f := range files {
		path := filepath.Join(*out, f.name)
		if *check {
			have, err := os.ReadFile(path)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%v (run `go run ./testdata/gen` from the repo root)\n", err)
				os.Exit(1)
			}
			if !bytes.Equal(have, f.data) {
				fmt.Fprintf(os.Stderr, "%s is stale: run `go run ./testdata/gen` from the repo root\n", path)
				os.Exit(1)
			}
			continue
		}
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d messages in %d sessions; noise %d, genuine %d, episodes %d, milestones %d genuine / %d false, lessons %d\n",
		len(msgs), len(lb.Sessions), len(lb.Noise), len(lb.Genuine), len(lb.Episodes),
		len(lb.GenuineMilestones), len(lb.FalseMilestones), len(lb.Corrections))
}
