package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"memtrace/engine"
	"memtrace/internal/wording"
	"memtrace/store"
	"memtrace/tiers"
)

// DemoConversation is the bilingual demo conversation (testdata/demo.jsonl).
// main embeds it into the binary and sets it, so that `memtrace demo` works
// from any directory; the package's tests read it from the file.
var DemoConversation []byte

// DemoSets holds the demo's golden set as the repository lays it out
// (golden/demo.yaml, its fixture ../demo.jsonl, quarantine and baseline);
// main embeds it, and the TUI's Golden tab opens it when the working
// directory has no set of its own (ui.Deps.Sets). Nil in the package's
// tests: the tab then finds the repository's files.
var DemoSets fs.FS

// cmdDemo runs `memtrace demo [--no-tui] [--db PATH]`: a fresh demo
// database built from testdata/demo.jsonl through the real capture
// pipeline, a summary of what it holds, and then (unless --no-tui) the TUI
// on it, its clock pinned to the morning after the conversation (demoClock).
func cmdDemo(fs *flag.FlagSet) runFunc {
	noTUI := fs.Bool("no-tui", false, "build the demo database and print a summary; do not open the TUI")
	return func(e *env, words []string) error {
		if len(words) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", words[0])}
		}
		path := ""
		if e.dbGiven {
			path = e.dbPath // --db, or $MEMTRACE_DB
		}
		if path == "" {
			dir, err := os.MkdirTemp("", "memtrace-demo-")
			if err != nil {
				return fmt.Errorf("make a temporary directory: %w", err)
			}
			path = filepath.Join(dir, "demo.db")
		}
		if store.IsDSN(path) {
			if ok, err := databaseExists(path); err != nil {
				return err
			} else if ok {
				return engine.Errorf(engine.ECONFLICT, "space %s already holds a memtrace database; the demo builds a fresh one: pass another ?search_path=SPACE", store.RedactDSN(path))
			}
		} else if _, err := os.Stat(path); err == nil {
			return engine.Errorf(engine.ECONFLICT, "%s already exists; the demo builds a fresh database: remove it or pass another --db PATH", path)
		}
		de := *e
		de.dbPath = path
		if err := buildDemo(&de); err != nil || *noTUI {
			return err
		}
		if err := openTUI(&de); err != nil {
			return err
		}
		// The summary scrolled away behind the TUI: say again how to
		// come back.
		fmt.Fprintf(e.stdout, "demo database: %s\n", path)
		printDemoNext(e.stdout, path)
		return nil
	}
}

// buildDemo builds the demo database at e.dbPath, pins its clock and prints
// what it holds.
func buildDemo(e *env) error {
	path := e.dbPath
	// Pin the clock before anything is written, so that the ingest's audit
	// rows and batch read on the same timeline as the memories.
	now, err := conversationClock(DemoConversation)
	if err != nil {
		return err
	}
	db, _, err := openStore(e, false)
	if err != nil {
		return err
	}
	err = db.SetSetting(e.ctx, settingClock, now.Format(time.RFC3339))
	db.Close()
	if err != nil {
		return err
	}
	eng, closeDB, err := openOrCreate(e)
	if err != nil {
		return err
	}
	defer closeDB()
	t, err := ingestStream(e.ctx, eng, bytes.NewReader(DemoConversation), defaultIngestBatch, false)
	if err != nil {
		return err
	}
	// The agent's use of its memory over the six months, before the
	// heartbeat looks at what went unused.
	recalls, recalled, err := replayDemoUse(e.ctx, eng)
	if err != nil {
		return fmt.Errorf("replay the demo's recalls: %w", err)
	}
	// One heartbeat pass at the demo's now, so the Curate tab opens on what a
	// curator would find: the lessons seen three times, and what went unused.
	hb, err := tiers.Heartbeat(e.ctx, eng, tiers.HeartbeatOptions{At: now})
	if err != nil {
		return err
	}
	w := e.stdout
	fmt.Fprintf(w, "demo database: %s (clock pinned at %s)\n", path, now.Format(time.RFC3339))
	t.print(w, "testdata/demo.jsonl")
	fmt.Fprintf(w, "replayed %s of an agent using its memory (%s returned)\n", wording.Count(recalls, "committed recall"), wording.Memories(recalled))
	fmt.Fprintf(w, "heartbeat: %s for the curator (memtrace proposals, or the Curate tab)\n", wording.Count(len(hb.Proposals), "proposal"))
	byType := map[string]int{}
	kinds := map[engine.Kind]int{}
	eng.EachMemory(func(m *engine.Memory) bool {
		byType[m.Type]++
		kinds[m.Kind]++
		return true
	})
	fmt.Fprintf(w, "memories: %d (%d facts, %d episodes)\n", eng.Len(), kinds[engine.KindFact], kinds[engine.KindEpisode])
	for _, k := range byCount(byType) {
		fmt.Fprintf(w, "  %4d  %s\n", byType[k], k)
	}
	printDemoNext(w, path)
	return nil
}

// printDemoNext prints the commands to go on with the demo database at
// path, spelled with the invocation that ran this one (invocation).
func printDemoNext(w io.Writer, path string) {
	if store.IsDSN(path) {
		path = "'" + store.RedactDSN(path) + "'" // & and ? are shell syntax
	} else {
		path = shellWord(path)
	}
	me := invocation(os.Args[0])
	fmt.Fprintf(w, "next: %s --db %s list --type milestone\n", me, path)
	fmt.Fprintf(w, "      %s --db %s recall \"충주 사과\" --trace\n", me, path)
	fmt.Fprintf(w, "      %s --db %s   (the TUI: reopens this database)\n", me, path)
}

// invocation is how the user ran this binary, for commands printed to be
// pasted: "go run ." for a binary go run built (in its go-build cache
// directory), the bare name when that name on $PATH is this binary, else
// the path it was run by.
func invocation(arg0 string) string {
	if strings.Contains(filepath.ToSlash(arg0), "/go-build") {
		return "go run ."
	}
	if found, err := exec.LookPath(filepath.Base(arg0)); err == nil {
		a, errA := os.Stat(found)
		b, errB := os.Stat(arg0)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return filepath.Base(arg0)
		}
	}
	return shellWord(arg0)
}

// shellWord quotes s for a POSIX shell when it holds anything but plain
// path characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
