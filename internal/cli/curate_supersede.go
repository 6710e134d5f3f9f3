package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/safetext"
)

// supersedeOutput is the `memtrace supersede --json` output: the older
// memory as it is now, and the curator batch that made the change
// (`memtrace rollback BATCH` undoes it).
type supersedeOutput struct {
	Memory *engine.Memory `json:"memory"`
	Batch  string         `json:"batch"`
	Linked bool           `json:"linked"` // false: --unlink removed the link
}

// cmdSupersede runs `memtrace supersede OLD NEW` (link by hand: NEW
// supersedes OLD) and `memtrace supersede OLD --unlink` (OLD is current
// again). Both are curator batches of their own, audited and undone by
// rollback.
func cmdSupersede(fs *flag.FlagSet) runFunc {
	unlink := fs.Bool("unlink", false, "remove OLD's supersession link: it is current again")
	validTo := fs.String("valid-to", "", "when OLD stopped holding, time `T`: a date, RFC 3339 or an offset from the database clock such as -2d (default: when NEW was created)")
	asJSON := fs.Bool("json", false, "print JSON")
	return func(e *env, words []string) error {
		want := 2
		if *unlink {
			want = 1
		}
		if len(words) != want {
			if *unlink {
				return usageError{"want one memory id: memtrace supersede OLD --unlink"}
			}
			return usageError{"want two memory ids: memtrace supersede OLD NEW (NEW supersedes OLD), or OLD --unlink"}
		}
		for _, w := range words {
			if _, ok := strings.CutPrefix(w, "key:"); ok {
				continue
			}
			if id, err := strconv.ParseInt(w, 10, 64); err != nil || id <= 0 {
				return usageError{fmt.Sprintf("%q is neither a memory id nor key:K; find them with `memtrace list --text WORD`", w)}
			}
		}
		eng, closeDB, err := openExisting(e)
		if err != nil {
			return err
		}
		defer closeDB()
		var at time.Time
		if *validTo != "" {
			// The time grammar of every --at, offsets from the
			// database clock.
			t, err := engine.ParseAt(*validTo, eng.Now())
			if err != nil {
				return usageError{"--valid-to: " + engine.ErrorMessage(err)}
			}
			at = t
		}
		ids := make([]int64, len(words))
		for i, w := range words {
			if ids[i], err = supersedeRef(e, eng, w); err != nil {
				return err
			}
		}
		actor := engine.Actor{Name: "curator"}
		var m *engine.Memory
		var batch string
		if *unlink {
			m, batch, err = capture.Unsupersede(e.ctx, eng, ids[0], actor)
		} else {
			m, batch, err = capture.Supersede(e.ctx, eng, ids[0], ids[1], at, actor)
		}
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(e.stdout, supersedeOutput{Memory: m, Batch: batch, Linked: !*unlink})
		}
		if *unlink {
			fmt.Fprintf(e.stdout, "memory %d is current again (link removed) in batch %s; `memtrace rollback %s` undoes it\n", m.ID, batch, batch)
			return nil
		}
		fmt.Fprintf(e.stdout, "memory %d %q is superseded by #%d, valid to %s, in batch %s; `memtrace supersede %d --unlink` or `memtrace rollback %s` undoes it\n",
			m.ID, safetext.SanitizeLine(m.Content), m.SupersededBy, m.ValidTo.Format("2006-01-02"), batch, m.ID, batch)
		return nil
	}
}

// supersedeRef resolves an argument of supersede, "ID" or "key:K" (checked
// by the caller), to a memory id.
func supersedeRef(e *env, eng *engine.Engine, w string) (int64, error) {
	k, ok := strings.CutPrefix(w, "key:")
	if !ok {
		return strconv.ParseInt(w, 10, 64)
	}
	m, err := eng.Store().GetMemoryByKey(e.ctx, k)
	if engine.ErrorCode(err) == engine.ENOTFOUND {
		return 0, engine.Errorf(engine.ENOTFOUND, "no memory %s; find one with `memtrace list --text WORD`", safetext.SanitizeLine(w))
	}
	if err != nil {
		return 0, err
	}
	return m.ID, nil
}
