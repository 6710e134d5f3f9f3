package cli

import (
	"flag"
	"fmt"
	"io"

	"memtrace/engine"
	"memtrace/internal/wording"
)

// cmdBackup runs `memtrace backup DIR`: an online SQLite backup of the
// database and a JSON dump of its memories, each with a .sha256 beside it.
func cmdBackup(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the backup description as JSON")
	return func(e *env, pos []string) error {
		if len(pos) != 1 {
			return usageError{"want exactly one directory to write the backup to"}
		}
		db, _, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		info, err := db.Backup(e.ctx, pos[0])
		if err != nil {
			return err
		}
		if db.Postgres() {
			// Extends the JSON with the physical-backup command; the
			// database fields stay "" (there is no file to copy).
			physical := db.PGDumpCommand(pos[0])
			if *asJSON {
				return writeJSON(e.stdout, struct {
					*engine.BackupInfo
					Physical string `json:"physical_backup"`
				}{info, physical})
			}
			printBackup(e.stdout, info)
			fmt.Fprintf(e.stdout, "this is PostgreSQL space %s: the dump above is its memories; for a physical backup of the whole space (audit, batches, proposals, captures) run\n  %s\nand restore it with pg_restore, or copy the space with `memtrace copy --from DSN --to FILE.db`\n", db.Space(), physical)
			return nil
		}
		if *asJSON {
			return writeJSON(e.stdout, info)
		}
		printBackup(e.stdout, info)
		return nil
	}
}

func printBackup(w io.Writer, info *engine.BackupInfo) {
	if info.DB != "" {
		fmt.Fprintf(w, "database  %s\n          sha256 %s\n", info.DB, info.DBSHA256)
	}
	fmt.Fprintf(w, "dump      %s (%s)\n          sha256 %s\n", info.Dump, wording.Memories(info.Memories), info.DumpSHA256)
	fmt.Fprintf(w, "written by memtrace %s\n", info.MemtraceVersion)
	fmt.Fprintln(w, "verify with: sha256sum -c FILE.sha256 (run in the backup directory)")
}
