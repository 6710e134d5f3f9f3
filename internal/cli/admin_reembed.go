package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"

	"memtrace/engine"
)

// ReembedStats is the `reembed --json` result.
type ReembedStats struct {
	Embedder string `json:"embedder"`
	Dim      int    `json:"dim"`
	Memories int    `json:"memories"` // every memory, any status
	Embedded int    `json:"embedded"` // re-embedded by this run
	Already  int    `json:"already"`  // had the embedder's vectors before this run (an earlier, interrupted run)
	Resumed  bool   `json:"resumed"`  // this run finished one that had been interrupted
	From     string `json:"from"`     // the database's embedder before
}

// cmdReembed runs `memtrace reembed [--embedder SPEC]`: every memory's
// vector from the embedder SPEC (default: the one an interrupted reembed
// was moving to, else the database's own), then the database's embedder
// becomes SPEC. Vectors are written batch by batch, so an interrupted run
// keeps what it did and the next run resumes; until the last batch the
// database keeps its old embedder (memories already moved are embedded
// in memory by it when opened).
func cmdReembed(fs *flag.FlagSet) runFunc {
	batch := fs.Int("batch", 64, "memories per embedding request and transaction")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	return func(e *env, words []string) error {
		if len(words) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", words[0])}
		}
		if *batch < 1 {
			return usageError{"--batch must be at least 1"}
		}
		return reembed(e, *batch, *asJSON)
	}
}

func reembed(e *env, batch int, asJSON bool) error {
	db, _, err := openStore(e, true)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := e.ctx
	from, _, err := dbEmbedder(ctx, db)
	if err != nil {
		return err
	}
	pending, err := db.GetSetting(ctx, settingReembedTarget)
	if err != nil {
		return err
	}
	var spec embedderSpec
	switch {
	case e.embedder != "":
		spec, err = parseEmbedder(e.embedder)
	case pending != "":
		spec, err = specOfName(pending)
	default:
		spec, err = specOfName(from)
	}
	if err != nil {
		return err
	}
	emb, err := spec.build(ctx)
	if err != nil {
		return err
	}
	name := emb.Name()
	st := ReembedStats{Embedder: name, Dim: emb.Dim(), From: from, Resumed: pending == name}
	if pending != "" && pending != name {
		fmt.Fprintf(e.stderr, "memtrace reembed: the unfinished reembed to %s is replaced by one to %s\n", pending, name)
	}
	// The intent first: a run cut short leaves it, so every command says a
	// reembed is unfinished and the next reembed knows where it was going.
	// A database that never recorded its embedder records it now, with the
	// intent: once some rows carry the target's vectors, its rows no longer
	// say which embedder it uses.
	recorded, err := db.GetSetting(ctx, settingEmbedder)
	if err != nil {
		return err
	}
	err = db.Update(ctx, func(q engine.Queries) error {
		if recorded == "" && from != name {
			if err := q.SetSetting(ctx, settingEmbedder, from); err != nil {
				return err
			}
			if h := engine.NewHashed(engine.HashedDim); from == h.Name() {
				if err := q.SetSetting(ctx, settingEmbedderDim, strconv.Itoa(h.Dim())); err != nil {
					return err
				}
			}
		}
		return q.SetSetting(ctx, settingReembedTarget, name)
	})
	if err != nil {
		return err
	}
	bar := (*progress)(nil)
	for pass := 0; ; pass++ {
		jobs, total, err := reembedJobs(ctx, db, name, emb.Dim())
		if err != nil {
			return err
		}
		if pass == 0 {
			st.Memories, st.Already = total, total-len(jobs)
			bar = newProgress(e.stderr, "reembed "+name, "memories", total)
			bar.set(st.Already)
		}
		if len(jobs) == 0 || pass == 3 {
			break // pass 3: what is left keeps being edited; the engine embeds it when read
		}
		for start := 0; start < len(jobs); start += batch {
			chunk := jobs[start:min(start+batch, len(jobs))]
			n, err := reembedChunk(ctx, db, emb, chunk)
			st.Embedded += n
			if err != nil {
				bar.finish()
				why := engine.ErrorMessage(err)
				if ctx.Err() != nil {
					why = "interrupted"
				}
				return engine.Errorf(engine.EUNAVAIL,
					"reembed stopped at %d of %d memories (%s); the %d re-embedded with %s are kept and the database still uses %s — run `memtrace reembed --db %s` to resume",
					st.Already+st.Embedded, st.Memories, why, st.Already+st.Embedded, name, from, e.dbPath)
			}
			bar.set(st.Already + st.Embedded)
		}
	}
	bar.finish()
	err = db.Update(ctx, func(q engine.Queries) error {
		if err := q.SetSetting(ctx, settingEmbedder, name); err != nil {
			return err
		}
		if err := q.SetSetting(ctx, settingEmbedderDim, strconv.Itoa(emb.Dim())); err != nil {
			return err
		}
		return q.SetSetting(ctx, settingReembedTarget, "")
	})
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, st)
	}
	fmt.Fprintf(e.stdout, "re-embedded %d of %d memories with %s (%d-dimensional; %d had them already); the database's embedder is now %s (was %s)\n",
		st.Embedded, st.Memories, name, st.Dim, st.Already, name, from)
	return nil
}

// reembedJob is one memory whose vector is not from the target embedder.
type reembedJob struct {
	id            int64
	hash, content string
}

// reembedJobs lists the memories (any status) without a vector from the
// embedder name of dim dimensions, and counts every memory.
func reembedJobs(ctx context.Context, db engine.Store, name string, dim int) ([]reembedJob, int, error) {
	var jobs []reembedJob
	total := 0
	err := db.ForEachMemory(ctx, func(m *engine.Memory) error {
		total++
		if m.Embedder != name || len(m.Embedding) != dim {
			jobs = append(jobs, reembedJob{id: m.ID, hash: m.Hash, content: m.Content})
		}
		return nil
	})
	return jobs, total, err
}

// reembedChunk embeds one chunk outside any transaction, then writes its
// vectors in one; it returns how many it wrote (a memory edited meanwhile
// is left for the next pass).
func reembedChunk(ctx context.Context, db engine.Store, emb engine.Embedder, chunk []reembedJob) (int, error) {
	texts := make([]string, len(chunk))
	for i, j := range chunk {
		texts[i] = j.content
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return 0, err
	}
	if len(vecs) != len(chunk) {
		return 0, fmt.Errorf("the embedder returned %d vectors for %d texts", len(vecs), len(chunk))
	}
	n := 0
	err = db.Update(ctx, func(q engine.Queries) error {
		n = 0
		for i, j := range chunk {
			ok, err := q.SetEmbedding(ctx, j.id, j.hash, vecs[i], emb.Name())
			if err != nil {
				return err
			}
			if ok {
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
