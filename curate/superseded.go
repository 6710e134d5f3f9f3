package curate

import (
	"context"
	"fmt"
	"strconv"

	"memtrace/engine"
)

// The Curate tab's superseded queue shows the supersession links written
// since a review mark: the audit row id of the newest link a curator marked
// reviewed, kept in the settings (links are ordered by when they were
// written, whatever the clock said).

// SettingSupersededReviewed is the settings key of the review mark.
const SettingSupersededReviewed = "curate.superseded_reviewed_audit_id"

// SupersededReviewed reads the review mark (0 before the first).
func SupersededReviewed(ctx context.Context, st engine.Store) (int64, error) {
	mark, err := st.GetSetting(ctx, SettingSupersededReviewed)
	if err != nil || mark == "" {
		return 0, err
	}
	n, err := strconv.ParseInt(mark, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("setting %s = %q is not an audit row id: %w", SettingSupersededReviewed, mark, err)
	}
	return n, nil
}

// MarkSupersededReviewed moves the review mark to the audit row mark: the
// links written up to it leave the queue (the links themselves stay).
func MarkSupersededReviewed(ctx context.Context, e *engine.Engine, mark int64) error {
	return e.Store().SetSetting(ctx, SettingSupersededReviewed, strconv.FormatInt(mark, 10))
}
