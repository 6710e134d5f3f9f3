package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"memtrace/engine"
	"memtrace/ollama"
)

// The embedder is chosen per database and kept in its settings, so the
// TUI, the MCP server and every command embed with the same model: a
// vector is only ever compared with vectors of the same embedder. The
// offline hashed embedder is the default; `--embedder ollama:MODEL` picks
// an Ollama embedding model when a database is created, and `memtrace
// reembed --embedder …` moves an existing database to another one.

// Settings keys of the embedder.
const (
	settingEmbedder      = "embedder"       // the Name() of the database's embedder
	settingEmbedderDim   = "embedder.dim"   // its vector length
	settingReembedTarget = "reembed.target" // set while a reembed has not finished: the embedder spec it moves to
)

// embedderHelp is the --embedder flag's help.
const embedderHelp = "the `hashed|ollama:MODEL` embedder of the database's vectors (hashed: offline, the default; ollama:MODEL: host from $OLLAMA_HOST); fixed per database — memtrace reembed --embedder … changes it"

// embedderFlag sets *p without resetting it when registered, so that an
// --embedder given before the command name survives the command's own
// flag set (registerGlobalFlags).
type embedderFlag struct{ p *string }

func (f embedderFlag) String() string { return "" }

func (f embedderFlag) Set(v string) error {
	if _, err := parseEmbedder(v); err != nil {
		return err
	}
	*f.p = v
	return nil
}

// embedderSpec is a parsed --embedder value.
type embedderSpec struct {
	ollama bool
	model  string // Ollama model, canonical (lower case, with a tag)
}

// parseEmbedder reads "hashed", a hashed embedder's name
// ("hashed-ngram-v2/256") or "ollama:MODEL".
func parseEmbedder(s string) (embedderSpec, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "hashed" || s == engine.NewHashed(engine.HashedDim).Name():
		return embedderSpec{}, nil
	case strings.HasPrefix(s, "ollama:"):
		m := canonicalModel(strings.TrimPrefix(s, "ollama:"))
		if m == "" {
			return embedderSpec{}, usageError{"--embedder ollama:MODEL needs the model, e.g. ollama:nomic-embed-text"}
		}
		return embedderSpec{ollama: true, model: m}, nil
	}
	return embedderSpec{}, usageError{fmt.Sprintf("--embedder %q: want hashed or ollama:MODEL (e.g. ollama:nomic-embed-text)", s)}
}

// canonicalModel writes an Ollama model name the way the server resolves
// it, so that "nomic-embed-text", "library/nomic-embed-text" and
// "Nomic-Embed-Text:latest" name the same embedder.
func canonicalModel(m string) string {
	m = strings.ToLower(strings.TrimSpace(m))
	m = strings.TrimPrefix(m, "registry.ollama.ai/")
	m = strings.TrimPrefix(m, "library/")
	if m == "" {
		return ""
	}
	if i := strings.LastIndex(m, "/"); !strings.Contains(m[i+1:], ":") {
		m += ":latest"
	}
	return m
}

// name is the Name() the embedder will have.
func (s embedderSpec) name() string {
	if s.ollama {
		return "ollama:" + s.model
	}
	return engine.NewHashed(engine.HashedDim).Name()
}

// build makes the embedder; an Ollama one is asked once, so that its
// dimension is known and an unreachable server or a missing model is
// reported now, with what to do.
func (s embedderSpec) build(ctx context.Context) (engine.Embedder, error) {
	if !s.ollama {
		return engine.NewHashed(engine.HashedDim), nil
	}
	emb := ollama.NewEmbedder(ollama.NewClient(ollama.ClientConfig{}), s.model)
	if err := emb.Ready(ctx); err != nil {
		return nil, err
	}
	return emb, nil
}

// dbEmbedder is the name of the embedder a database's vectors come from:
// its setting, or for a database from before the setting the embedder
// its first memory names, or the default.
func dbEmbedder(ctx context.Context, db engine.Store) (string, int, error) {
	name, err := db.GetSetting(ctx, settingEmbedder)
	if err != nil {
		return "", 0, err
	}
	if name == "" {
		if name, err = unrecordedEmbedder(ctx, db); err != nil {
			return "", 0, err
		}
	}
	dim := 0
	if v, err := db.GetSetting(ctx, settingEmbedderDim); err != nil {
		return "", 0, err
	} else if v != "" {
		dim, _ = strconv.Atoi(v)
	}
	return name, dim, nil
}

// errFound stops a ForEachMemory scan.
var errFound = errors.New("found")

// unrecordedEmbedder is the embedder of a database without the setting:
// the one its first memory names, or the default. While a reembed is
// unfinished some rows already carry the target's vectors, which are not
// the database's: the first memory with another embedder names it (a
// database without the setting was made with the default, so that is the
// answer when every row has moved).
func unrecordedEmbedder(ctx context.Context, db engine.Store) (string, error) {
	def := engine.NewHashed(engine.HashedDim).Name()
	target, err := db.GetSetting(ctx, settingReembedTarget)
	if err != nil {
		return "", err
	}
	if target == "" {
		ms, _, err := db.FindMemories(ctx, engine.MemoryFilter{Limit: 1})
		if err != nil {
			return "", err
		}
		if len(ms) > 0 && ms[0].Embedder != "" {
			return ms[0].Embedder, nil
		}
		return def, nil
	}
	name := def
	err = db.ForEachMemory(ctx, func(m *engine.Memory) error {
		if m.Embedder != "" && m.Embedder != target {
			name = m.Embedder
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return "", err
	}
	return name, nil
}

// specOfName parses a stored embedder name back into a spec.
func specOfName(name string) (embedderSpec, error) {
	if strings.HasPrefix(name, "hashed-ngram-v2/") && name != engine.NewHashed(engine.HashedDim).Name() {
		return embedderSpec{}, engine.Errorf(engine.EINVALID, "the database's vectors come from %s, which this memtrace does not build; run `memtrace reembed --embedder hashed`", name)
	}
	if strings.HasPrefix(name, "hashed-") {
		return embedderSpec{}, nil
	}
	sp, err := parseEmbedder(name)
	if err != nil {
		return embedderSpec{}, engine.Errorf(engine.EINVALID, "the database names its embedder %q, which this memtrace does not know; run `memtrace reembed --embedder hashed` to rebuild the vectors", name)
	}
	return sp, nil
}

// chooseEmbedder is the embedder to open db with: the database's own,
// unless --embedder asks for another — which is refused for a database
// that has memories (their vectors would not compare), saying what to run,
// and recorded for an empty one when the command writes (record).
func chooseEmbedder(e *env, db engine.Store, record bool) (engine.Embedder, error) {
	ctx := e.ctx
	have, haveDim, err := dbEmbedder(ctx, db)
	if err != nil {
		return nil, err
	}
	pending, err := db.GetSetting(ctx, settingReembedTarget)
	if err != nil {
		return nil, err
	}
	if pending != "" {
		fmt.Fprintf(e.stderr, "memtrace: a `memtrace reembed` to %s has not finished; the database still uses %s — run `memtrace reembed --db %s` to finish it\n", pending, have, e.dbPath)
	}
	spec, err := specOfName(have)
	if err != nil {
		return nil, err
	}
	if e.embedder != "" {
		asked, err := parseEmbedder(e.embedder)
		if err != nil {
			return nil, err
		}
		if asked.name() != have && asked.name() == pending {
			// Half the rows have its vectors already; the engine embeds
			// the others in memory, and nothing is recorded.
			fmt.Fprintf(e.stderr, "memtrace: using %s, the unfinished reembed's target; the memories it has not reached yet are embedded in memory\n", pending)
			return asked.build(ctx)
		}
		if asked.name() != have {
			_, n, err := db.FindMemories(ctx, engine.MemoryFilter{Limit: 1})
			if err != nil {
				return nil, err
			}
			if n > 0 {
				return nil, engine.Errorf(engine.ECONFLICT,
					"the %d memories of %s have vectors from %s, not %s: run `memtrace reembed --embedder %s --db %s` to re-embed them (resumable), or leave out --embedder to use %s",
					n, e.dbPath, have, asked.name(), e.embedder, e.dbPath, have)
			}
			spec = asked
			emb, err := spec.build(ctx)
			if err != nil {
				return nil, err
			}
			if record {
				if err := recordEmbedder(ctx, db, emb); err != nil {
					return nil, err
				}
			}
			return emb, nil
		}
	}
	emb, err := spec.build(ctx)
	if err != nil && spec.ollama && haveDim > 0 && engine.ErrorCode(err) == engine.EUNAVAIL && ctx.Err() == nil {
		// The server is away: the database's vectors are all here, so every
		// command that needs no new vector works, recall falls back to the
		// lexical channels, and the server is asked again at each embedding.
		fmt.Fprintf(e.stderr, "memtrace: %s — working offline: recall is lexical only until it is back (or run `memtrace reembed --embedder hashed --db %s`)\n",
			engine.ErrorMessage(err), e.dbPath)
		return ollama.NewEmbedderDim(ollama.NewClient(ollama.ClientConfig{}), spec.model, haveDim), nil
	}
	if err != nil {
		if spec.ollama {
			return nil, engine.Errorf(engine.ErrorCode(err), "%s (the database %s embeds with %s; to go back to the offline embedder run `memtrace reembed --embedder hashed --db %s`)",
				engine.ErrorMessage(err), e.dbPath, have, e.dbPath)
		}
		return nil, err
	}
	if haveDim > 0 && emb.Dim() != haveDim {
		return nil, engine.Errorf(engine.ECONFLICT,
			"%s now returns %d-dimensional vectors, but the database's are %d-dimensional: the model changed under the same name; run `memtrace reembed --db %s` to rebuild them",
			have, emb.Dim(), haveDim, e.dbPath)
	}
	return emb, nil
}

// recordEmbedder writes the embedder's name and dimension to the settings.
func recordEmbedder(ctx context.Context, db engine.Store, emb engine.Embedder) error {
	return db.Update(ctx, func(q engine.Queries) error {
		if err := q.SetSetting(ctx, settingEmbedder, emb.Name()); err != nil {
			return err
		}
		return q.SetSetting(ctx, settingEmbedderDim, strconv.Itoa(emb.Dim()))
	})
}
