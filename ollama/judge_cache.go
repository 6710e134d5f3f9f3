package ollama

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"memtrace/engine"
	"memtrace/internal/outfile"
)

// CacheKey is everything that determines a verdict. Two calls with equal
// keys would send byte-identical requests to identical weights, so the
// stored verdict can be reused; change any part and the verdict is redone.
type CacheKey struct {
	Digest        string `json:"digest"`         // model digest (ModelInfo.Digest)
	PromptVersion string `json:"prompt_version"` // PromptVersion
	SchemaHash    string `json:"schema_hash"`    // SchemaHash of the format schema
	OptionsHash   string `json:"options_hash"`   // sampling options, think, model name
	InputHash     string `json:"input_hash"`     // the judged text after label stripping, and its context
}

// ID is the SHA-256 (hex) of the key's parts; caches index by it.
func (k CacheKey) ID() string {
	return hashHex([]byte(strings.Join([]string{k.Digest, k.PromptVersion, k.SchemaHash, k.OptionsHash, k.InputHash}, "\x00")))
}

// CacheEntry is one cached verdict: the validated answer of the model, as
// JSON, and how it was obtained. Only valid answers are cached, so an item
// that needed review is judged again on the next run.
//
// Memtrace is the version of the memtrace that asked. It is provenance, not
// part of the key: the key's PromptVersion is what a release changes when
// its prompts change meaning, so a release that leaves the prompts alone
// reuses the verdicts of the one before, and one that changes them does not.
type CacheEntry struct {
	ID       string          `json:"id"`
	Key      CacheKey        `json:"key"`
	Kind     string          `json:"kind"` // "capture" or "triage"
	Model    string          `json:"model"`
	Verdict  json.RawMessage `json:"verdict"`
	At       time.Time       `json:"at"`
	Memtrace string          `json:"memtrace_version,omitempty"`
	// Texts are engine.ContentHash of each memory or message text the
	// question quoted (the judged text, the candidates it may update): an
	// erasure (`memtrace erase`) removes every entry that names an erased
	// text by its hash, verdict or not quoting it.
	Texts []string `json:"texts,omitempty"`
}

// textHashes is engine.ContentHash of each non-empty text.
func textHashes(texts []string) []string {
	var out []string
	for _, t := range texts {
		if strings.TrimSpace(t) != "" {
			out = append(out, engine.ContentHash(t))
		}
	}
	return out
}

// Cache stores verdicts so that a partial run resumes without re-judging
// what it already judged. The engine or the store may persist it anywhere;
// FileCache is the JSONL implementation the CLI uses.
type Cache interface {
	Get(ctx context.Context, id string) (CacheEntry, bool, error)
	Put(ctx context.Context, e CacheEntry) error
}

// FileCache is a Cache in an append-only JSONL file: one entry a line,
// later lines win. A line cut short by a crash is skipped on load, so a
// killed run loses at most the verdict it was writing.
type FileCache struct {
	path string

	mu      sync.Mutex
	f       *os.File
	entries map[string]CacheEntry
	skipped int
}

// NewFileCache opens (creating if needed) the cache file at path and loads
// its entries.
func NewFileCache(path string) (*FileCache, error) {
	c := &FileCache{path: path, entries: map[string]CacheEntry{}}
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("judge cache: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e CacheEntry
		if err := json.Unmarshal(line, &e); err != nil || e.ID == "" || e.ID != e.Key.ID() {
			c.skipped++
			continue
		}
		c.entries[e.ID] = e
	}
	// The cache holds memory text: private, and never written through a
	// link.
	f, err := outfile.Append(path, outfile.Private)
	if err != nil {
		return nil, fmt.Errorf("judge cache: %w", err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		// Finish the torn line so the next entry starts on its own line.
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, fmt.Errorf("judge cache: %w", err)
		}
	}
	c.f = f
	return c, nil
}

// Path is the file the cache lives in.
func (c *FileCache) Path() string { return c.path }

// Len is the number of cached verdicts.
func (c *FileCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Skipped is the number of unreadable lines ignored on load.
func (c *FileCache) Skipped() int { return c.skipped }

// Get returns the entry with the given ID.
func (c *FileCache) Get(_ context.Context, id string) (CacheEntry, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[id]
	return e, ok, nil
}

// Put appends e as one line in a single write and syncs it, so a crash
// right after Put returns does not lose the verdict.
func (c *FileCache) Put(_ context.Context, e CacheEntry) error {
	if e.ID == "" {
		e.ID = e.Key.ID()
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("judge cache: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return fmt.Errorf("judge cache %s: closed", c.path)
	}
	if _, err := c.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("judge cache %s: %w", c.path, err)
	}
	if err := c.f.Sync(); err != nil {
		return fmt.Errorf("judge cache %s: %w", c.path, err)
	}
	c.entries[e.ID] = e
	return nil
}

// Close closes the file. Get still answers from memory afterwards.
func (c *FileCache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}
