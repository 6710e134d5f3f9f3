package inspector

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"memtrace/engine"
	"memtrace/internal/safetext"
)

// OpenTelemetry export of a recall trace: one root span for the whole
// recall and one child span per stage, in stage order, in the OTLP/JSON
// encoding (traceId, spanId, parentSpanId, name, kind, startTimeUnixNano,
// endTimeUnixNano, attributes as key/value pairs with typed values).
// Request wraps them in an ExportTraceServiceRequest (resourceSpans →
// scopeSpans → spans), one JSON line per recall, which is what the
// OpenTelemetry file exporter writes and the Collector's otlpjsonfile
// receiver reads (see docs/inspector.md). Every export of a recall gets
// fresh random trace and span ids, as every recall is its own trace.
// Attribute names follow the OpenTelemetry GenAI semantic conventions for
// memory operations where one fits (gen_ai.operation.name = search_memory,
// gen_ai.memory.query.text, gen_ai.memory.record.count,
// gen_ai.memory.store.id, gen_ai.memory.records); the rest are memtrace.*.
// Content — the query, the memory texts, the stage notes derived from the
// query — is exported only when SpanOptions.Content says the user opted in
// (the conventions' capture-content switch), and then neutralised
// (internal/safetext): a collector's UI is a terminal too.
const (
	// SpanRoot is the root span's name: the GenAI operation, no store name.
	SpanRoot = "search_memory"
	// SpanStagePrefix + a stage name is a stage span's name.
	SpanStagePrefix = "memtrace.stage."
	// Span kinds as OTLP numbers them.
	SpanKindInternal = 1
	SpanKindClient   = 3
)

// Span is one span in OTLP/JSON field names. 64-bit integers (times,
// intValue) are decimal strings, as OTLP/JSON encodes them.
type Span struct {
	TraceID           string     `json:"traceId"`
	SpanID            string     `json:"spanId"`
	ParentSpanID      string     `json:"parentSpanId,omitempty"`
	Name              string     `json:"name"`
	Kind              int        `json:"kind"`
	StartTimeUnixNano string     `json:"startTimeUnixNano"`
	EndTimeUnixNano   string     `json:"endTimeUnixNano"`
	Attributes        []KeyValue `json:"attributes"`
}

// KeyValue is one attribute.
type KeyValue struct {
	Key   string   `json:"key"`
	Value AnyValue `json:"value"`
}

// AnyValue holds exactly one typed value.
type AnyValue struct {
	StringValue *string       `json:"stringValue,omitempty"`
	BoolValue   *bool         `json:"boolValue,omitempty"`
	IntValue    *string       `json:"intValue,omitempty"`
	DoubleValue *float64      `json:"doubleValue,omitempty"`
	ArrayValue  *ArrayValue   `json:"arrayValue,omitempty"`
	KvlistValue *KeyValueList `json:"kvlistValue,omitempty"`
}

// ArrayValue is a list of values.
type ArrayValue struct {
	Values []AnyValue `json:"values"`
}

// KeyValueList is a map-like value (an object).
type KeyValueList struct {
	Values []KeyValue `json:"values"`
}

// Attr returns the value of the attribute key, if present.
func (s Span) Attr(key string) (AnyValue, bool) {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return AnyValue{}, false
}

// Str, Int, Float, Bool build attribute values.
func Str(s string) AnyValue { return AnyValue{StringValue: &s} }
func Int(n int64) AnyValue {
	s := strconv.FormatInt(n, 10)
	return AnyValue{IntValue: &s}
}
func Float(x float64) AnyValue {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Str(strconv.FormatFloat(x, 'g', -1, 64)) // JSON has no NaN
	}
	return AnyValue{DoubleValue: &x}
}
func Bool(b bool) AnyValue { return AnyValue{BoolValue: &b} }

func kv(key string, v AnyValue) KeyValue { return KeyValue{Key: key, Value: v} }

// newID returns n random bytes in hex: a trace id (16) or a span id (8).
func newID(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("otel ids: %v", err)) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b)
}

// SpanOptions are what a recall's spans carry besides the trace.
type SpanOptions struct {
	// StoreID is gen_ai.memory.store.id: which memory store was searched,
	// a stable opaque id (StoreID), never a path or a DSN.
	StoreID string
	// Content exports the query text (gen_ai.memory.query.text), the
	// recalled memories (gen_ai.memory.records) and the stage notes that
	// repeat the query's words. The GenAI conventions make these opt-in:
	// without it the spans carry counts, scores and ids only.
	Content bool
}

// StoreID is the gen_ai.memory.store.id of the store identity (for SQLite
// "sqlite:" and the database file's absolute path, for PostgreSQL
// "postgres:" and the DSN without its password): "memtrace-" and the first
// 16 hex digits of its SHA-256. The same database gives the same id on
// every run and every machine that names it alike, and the id does not
// reveal the path.
func StoreID(identity string) string {
	sum := sha256.Sum256([]byte(identity))
	return "memtrace-" + hex.EncodeToString(sum[:8])
}

// contentNotes are the stage notes that repeat the query's own words
// (retrieve's normalised query and its terms, relevance's surfaces, the
// temporal marker and named periods) or the memories' texts (the block
// before the budget): content, exported only with SpanOptions.Content.
var contentNotes = map[string]bool{
	"normalized": true, "surface": true, "kept_terms": true, "dropped_words": true, "down_weighted_terms": true,
	"concept_expansions": true, "generic_query_terms": true, "specific_surface": true,
	"intent_marker": true, "named_periods": true, "block_before_budget": true,
}

// Spans turns tr into a root span and one span per stage, under a new
// random trace id. start is when the recall began on the wall clock; each
// stage span lasts its took_ms, one after the other, and the root span
// covers them all. (The simulated time of the recall is the attribute
// memtrace.at.)
func Spans(tr *engine.Trace, start time.Time, o SpanOptions) []Span {
	traceID := newID(16)
	rootID := newID(8)
	base := start.UnixNano()
	var offset int64
	stages := make([]Span, 0, len(tr.Stages))
	for i, st := range tr.Stages {
		took := int64(math.Round(st.TookMS * 1e6))
		if took < 0 {
			took = 0
		}
		name := SpanStagePrefix + st.Name
		stages = append(stages, Span{
			TraceID: traceID, SpanID: newID(8), ParentSpanID: rootID,
			Name: name, Kind: SpanKindInternal,
			StartTimeUnixNano: strconv.FormatInt(base+offset, 10),
			EndTimeUnixNano:   strconv.FormatInt(base+offset+took, 10),
			Attributes:        stageAttributes(i, st, o.Content),
		})
		offset += took
	}
	root := Span{
		TraceID: traceID, SpanID: rootID, Name: SpanRoot, Kind: SpanKindClient,
		StartTimeUnixNano: strconv.FormatInt(base, 10),
		EndTimeUnixNano:   strconv.FormatInt(base+offset, 10),
		Attributes:        rootAttributes(tr, o),
	}
	return append([]Span{root}, stages...)
}

func rootAttributes(tr *engine.Trace, o SpanOptions) []KeyValue {
	attrs := []KeyValue{
		kv("gen_ai.operation.name", Str("search_memory")),
		kv("gen_ai.provider.name", Str("memtrace")),
		kv("gen_ai.memory.record.count", Int(int64(len(tr.Survivors)))),
		kv("memtrace.at", Str(tr.At.UTC().Format(time.RFC3339))),
		kv("memtrace.read_only", Bool(tr.ReadOnly)),
		kv("memtrace.k", Int(int64(tr.K))),
		kv("memtrace.budget.budget_chars", Int(int64(tr.Budget))),
		kv("memtrace.budget.used_chars", Int(int64(tr.PromptChars))),
		kv("memtrace.survivors", Int(int64(len(tr.Survivors)))),
		kv("memtrace.guaranteed", Int(int64(tr.Guaranteed))),
		kv("memtrace.channel", channelCounts(tr.Survivors)),
	}
	if o.StoreID != "" {
		attrs = append(attrs, kv("gen_ai.memory.store.id", Str(o.StoreID)))
	}
	if tr.Session != "" {
		attrs = append(attrs, kv("memtrace.session", Str(tr.Session)))
	}
	if tr.Project != "" {
		attrs = append(attrs, kv("memtrace.project", Str(tr.Project)))
	}
	ids := make([]AnyValue, len(tr.Survivors))
	for i, s := range tr.Survivors {
		ids[i] = Int(s.ID)
	}
	attrs = append(attrs, kv("memtrace.survivor_ids", AnyValue{ArrayValue: &ArrayValue{Values: ids}}))
	if o.Content {
		attrs = append(attrs, kv("gen_ai.memory.query.text", Str(safetext.SanitizeLine(tr.Query))))
		if st := tr.Stage("budget"); st != nil {
			attrs = append(attrs, kv("gen_ai.memory.records", records(st)))
		}
	}
	return attrs
}

func stageAttributes(i int, st engine.StageTrace, content bool) []KeyValue {
	attrs := []KeyValue{
		kv("memtrace.stage.name", Str(st.Name)),
		kv("memtrace.stage.index", Int(int64(i))),
		kv("memtrace.stage.in", Int(int64(st.In))),
		kv("memtrace.stage.out", Int(int64(st.Out))),
		kv("memtrace.stage.took_ms", Float(st.TookMS)),
		kv("memtrace.dropped", counts(DropCounts(st))),
	}
	switch st.Name {
	case "temporal":
		attrs = append(attrs, kv("memtrace.decay", decays(st)))
	case "guaranteed", "merge", "blend":
		var kept []engine.Survivor
		for _, it := range st.Items {
			if it.Dropped == "" {
				kept = append(kept, engine.Survivor{Channel: it.Channel})
			}
		}
		attrs = append(attrs, kv("memtrace.channel", channelCounts(kept)))
	case "budget":
		if content {
			attrs = append(attrs, kv("gen_ai.memory.records", records(&st)))
		}
		if v, err := strconv.Atoi(st.Notes["used_chars"]); err == nil {
			attrs = append(attrs, kv("memtrace.budget.used_chars", Int(int64(v))))
		}
		if v, err := strconv.Atoi(st.Notes["budget_chars"]); err == nil {
			attrs = append(attrs, kv("memtrace.budget.budget_chars", Int(int64(v))))
		}
	}
	keys := make([]string, 0, len(st.Notes))
	for k := range st.Notes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if contentNotes[k] && !content {
			continue
		}
		attrs = append(attrs, kv("memtrace.stage.note."+k, Str(safetext.Sanitize(st.Notes[k]))))
	}
	return attrs
}

// records is gen_ai.memory.records: the stage's kept items as {id,
// content, score, metadata}, score being final_score (higher is better).
func records(st *engine.StageTrace) AnyValue {
	var vs []AnyValue
	for _, it := range st.Items {
		if it.Dropped != "" {
			continue
		}
		meta := []KeyValue{
			kv("key", Str(safetext.SanitizeLine(it.Key))), kv("kind", Str(string(it.Kind))), kv("type", Str(it.Type)),
			kv("tier", Str(string(it.Tier))), kv("channel", Str(it.Channel)),
		}
		for _, name := range []string{"relevance_score", "decay", "boost"} {
			if v, ok := it.Scores[name]; ok {
				meta = append(meta, kv(name, Float(v)))
			}
		}
		vs = append(vs, AnyValue{KvlistValue: &KeyValueList{Values: []KeyValue{
			kv("id", Str(strconv.FormatInt(it.ID, 10))),
			kv("content", Str(safetext.Sanitize(it.Text))),
			kv("score", Float(it.Scores["final_score"])),
			kv("metadata", AnyValue{KvlistValue: &KeyValueList{Values: meta}}),
		}}})
	}
	return AnyValue{ArrayValue: &ArrayValue{Values: nonNil(vs)}}
}

// decays is memtrace.decay on the temporal span: per item (kept and
// dropped) its id, decay, boost, final_score and whether it was forgotten.
func decays(st engine.StageTrace) AnyValue {
	var vs []AnyValue
	for _, it := range st.Items {
		vs = append(vs, AnyValue{KvlistValue: &KeyValueList{Values: []KeyValue{
			kv("id", Str(strconv.FormatInt(it.ID, 10))),
			kv("decay", Float(it.Scores["decay"])),
			kv("boost", Float(it.Scores["boost"])),
			kv("final_score", Float(it.Scores["final_score"])),
			kv("forgotten", Bool(it.DropKind == engine.DropForgotten)),
			kv("recognised", Bool(it.Recognised)),
		}}})
	}
	return AnyValue{ArrayValue: &ArrayValue{Values: nonNil(vs)}}
}

func nonNil(vs []AnyValue) []AnyValue {
	if vs == nil {
		return []AnyValue{}
	}
	return vs
}

func channelCounts(ss []engine.Survivor) AnyValue {
	n := map[string]int{}
	for _, s := range ss {
		if s.Channel != "" {
			n[s.Channel]++
		}
	}
	return counts(n)
}

// counts renders a map of counts as a key/value list sorted by key.
func counts(n map[string]int) AnyValue {
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]KeyValue, len(keys))
	for i, k := range keys {
		vals[i] = kv(k, Int(int64(n[k])))
	}
	return AnyValue{KvlistValue: &KeyValueList{Values: vals}}
}

// DropCounts counts a stage's dropped items by drop kind
// (engine.DropKinds).
func DropCounts(st engine.StageTrace) map[string]int {
	n := map[string]int{}
	for _, it := range st.Items {
		if it.DropKind != "" {
			n[string(it.DropKind)]++
		}
	}
	return n
}
