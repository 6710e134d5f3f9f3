package cli

import (
	"bytes"
	"flag"
	"fmt"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// cmdClock runs `memtrace clock [TIME|--unset]`: show, pin or unpin the
// database's clock (see settingClock).
func cmdClock(fs *flag.FlagSet) runFunc {
	unset := fs.Bool("unset", false, "use the wall clock again")
	return func(e *env, words []string) error {
		if len(words) > 1 || (*unset && len(words) > 0) {
			return usageError{"give one TIME (an RFC 3339 time, a date, or an offset such as +1d from the clock), or --unset, or nothing to show the clock"}
		}
		db, now, err := openStore(e, true)
		if err != nil {
			return err
		}
		defer db.Close()
		switch {
		case *unset:
			if err := db.SetSetting(e.ctx, settingClock, ""); err != nil {
				return err
			}
		case len(words) == 1:
			// The time grammar of every --at: an offset moves the clock
			// from where it stands (pinned, else the wall clock).
			t, err := engine.ParseAt(words[0], now())
			if err != nil {
				return usageError{fmt.Sprintf("%q: %s (%s)", words[0], engine.ErrorMessage(err), engine.TimeGrammar)}
			}
			if err := db.SetSetting(e.ctx, settingClock, t.UTC().Format(time.RFC3339)); err != nil {
				return err
			}
		}
		v, err := db.GetSetting(e.ctx, settingClock)
		if err != nil {
			return err
		}
		if v == "" {
			fmt.Fprintf(e.stdout, "clock: wall clock (%s)\n", time.Now().UTC().Format(time.RFC3339))
			return nil
		}
		fmt.Fprintf(e.stdout, "clock: pinned at %s (`memtrace clock --unset` to use the wall clock)\n", v)
		return nil
	}
}

// conversationClock is the "now" a demo database is pinned to: 09:00 UTC on
// the day after the newest message of its conversation.
func conversationClock(jsonl []byte) (time.Time, error) {
	var last time.Time
	_, err := capture.ReadMessages(bytes.NewReader(jsonl), func(_ int, m engine.Message) error {
		if m.At.After(last) {
			last = m.At
		}
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	if last.IsZero() {
		return time.Time{}, engine.Errorf(engine.EINVALID, "the demo conversation has no message with a time")
	}
	return last.UTC().Truncate(24 * time.Hour).Add(24*time.Hour + 9*time.Hour), nil
}
