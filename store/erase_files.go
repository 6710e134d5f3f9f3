package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"

	"memtrace/engine"
	"memtrace/internal/outfile"
)

// scrubJudgeCaches rewrites each judge cache file an earlier run recorded
// (engine.ArtifactJudgeCache) without the entries of the erased texts, and
// takes those files out of the report's list of files that may still hold
// the text; a file it could not rewrite stays in that list, with what to do
// in Pending.
func scrubJudgeCaches(rep *engine.EraseReport, texts []string) {
	hashes := map[string]bool{}
	for _, t := range texts {
		if t != "" && t != engine.ErasedText {
			hashes[engine.ContentHash(t)] = true
		}
	}
	needles := needleForms(texts)
	var left []engine.Artifact
	seen := map[string]bool{}
	for _, a := range rep.Artifacts {
		if a.Kind != engine.ArtifactJudgeCache {
			left = append(left, a)
			continue
		}
		if seen[a.Path] {
			continue
		}
		seen[a.Path] = true
		n, err := scrubCacheFile(a.Path, hashes, needles)
		switch {
		case errors.Is(err, os.ErrNotExist):
			// Deleted since: nothing left to scrub.
		case err != nil:
			left = append(left, a)
			rep.Pending = append(rep.Pending, fmt.Sprintf("judge cache %s could not be rewritten (%v): delete it; a cache is only a time saver", a.Path, err))
		default:
			rep.Scrubbed[engine.ArtifactJudgeCache] += n
			rep.Compaction = append(rep.Compaction, fmt.Sprintf("judge cache %s: %d entries of the erased texts removed, the file overwritten in place", a.Path, n))
		}
	}
	rep.Artifacts = left
}

// cacheLine is the part of a judge cache entry (ollama.CacheEntry) an
// erasure reads: the hashes of the texts its question quoted.
type cacheLine struct {
	Texts []string `json:"texts"`
}

// scrubCacheFile drops every line of the JSONL cache at path that names
// one of hashes or quotes one of needles, and overwrites the file in
// place: the kept lines from the start, zeros over the rest, then the
// file is cut to the kept length — so the dropped entries' bytes are
// overwritten rather than left in freed blocks. A symbolic link is refused.
func scrubCacheFile(path string, hashes map[string]bool, needles []string) (int, error) {
	if err := outfile.RefuseLink(path); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	data := make([]byte, fi.Size())
	if _, err := f.ReadAt(data, 0); err != nil && fi.Size() > 0 {
		return 0, err
	}
	var kept bytes.Buffer
	removed := 0
	for line := range bytes.Lines(data) {
		if erasedEntry(line, hashes, needles) {
			removed++
			continue
		}
		kept.Write(line)
	}
	if removed == 0 {
		return 0, nil
	}
	out := append(kept.Bytes(), make([]byte, len(data)-kept.Len())...)
	if _, err := f.WriteAt(out, 0); err != nil {
		return 0, err
	}
	if err := f.Sync(); err != nil {
		return 0, err
	}
	if err := f.Truncate(int64(kept.Len())); err != nil {
		return 0, err
	}
	return removed, f.Sync()
}

// erasedEntry: the cache line names an erased text by its hash, or quotes
// one.
func erasedEntry(line []byte, hashes map[string]bool, needles []string) bool {
	var e cacheLine
	if json.Unmarshal(line, &e) == nil {
		for _, h := range e.Texts {
			if hashes[h] {
				return true
			}
		}
	}
	for _, n := range needles {
		if bytes.Contains(line, []byte(n)) {
			return true
		}
	}
	return false
}
