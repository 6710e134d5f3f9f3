package engine

import (
	"context"
	"slices"
)

// Triage verdicts (seed 001, Fix B). The judge answers one of the first
// four; needs_review marks an answer that failed validation and is never
// acted upon.
const (
	TriageKeep        = "keep"
	TriageEcho        = "echo"
	TriageRoleplay    = "roleplay_scene"
	TriageRetype      = "retype"
	TriageNeedsReview = "needs_review"
)

// FlagInjectionAttempt is the verdict flag of an item whose text tries to
// instruct the judge; the curator must see it.
const FlagInjectionAttempt = "injection_attempt"

// The other verdict flags the judge sets: a low-confidence answer mapped
// by a rule, and label prefixes stripped from the item's text.
const (
	FlagLowConfidence       = "low_confidence"
	FlagLabelPrefixStripped = "label_prefix_stripped"
)

// VerdictFlags are the flags a verdict can carry, the loudest first.
var VerdictFlags = []string{FlagInjectionAttempt, FlagLowConfidence, FlagLabelPrefixStripped}

// TriageItem is one stored memory under review.
type TriageItem struct {
	ID   int64  `json:"id"`
	Key  string `json:"key,omitempty"`
	Type string `json:"type"`
	Text string `json:"text"`
}

// TriageVerdict is the judge's decision on one item, pinned with what
// produced it (model, digest, prompt and input hashes) so a verdict file
// can be audited and replayed. Its JSON is one line of the verdict file.
// The Ollama adapter (package ollama) produces it.
type TriageVerdict struct {
	MemoryID   int64   `json:"memory_id"`
	Key        string  `json:"key,omitempty"`
	Type       string  `json:"type"`
	Verdict    string  `json:"verdict"` // keep | echo | roleplay_scene | retype | needs_review
	RetypeTo   string  `json:"retype_to,omitempty"`
	Reason     string  `json:"reason"`
	Confidence float64 `json:"confidence"`
	// JudgeVerdict is what the model answered when a rule changed it (low
	// confidence mapped to echo); empty when Verdict is the model's own.
	JudgeVerdict string `json:"judge_verdict,omitempty"`
	// Flags are for the curator: injection_attempt, low_confidence,
	// label_prefix_stripped.
	Flags         []string `json:"flags,omitempty"`
	NeedsReview   bool     `json:"needs_review,omitempty"`
	Model         string   `json:"model"`
	Digest        string   `json:"digest"`
	PromptVersion string   `json:"prompt_version"`
	PromptHash    string   `json:"prompt_hash"`
	SchemaHash    string   `json:"schema_hash"`
	InputHash     string   `json:"input_hash"`
	Attempts      int      `json:"attempts"` // model calls made; 0 when served from the cache
	Cached        bool     `json:"-"`
}

// Label is the verdict in DESIGN.md's notation: "retype:<type>" or the
// verdict itself.
func (v TriageVerdict) Label() string {
	if v.Verdict == TriageRetype {
		return TriageRetype + ":" + v.RetypeTo
	}
	return v.Verdict
}

// HasFlag reports whether the verdict carries flag.
func (v TriageVerdict) HasFlag(flag string) bool { return slices.Contains(v.Flags, flag) }

// Triager judges one stored memory for curate.RunTriage. Package ollama
// provides the Ollama one; the engine never imports it, so tests and other
// judges plug in here.
type Triager interface {
	Triage(ctx context.Context, item TriageItem) (TriageVerdict, error)
	// Model names the model that judges, for messages and the report.
	Model() string
}
