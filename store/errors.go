package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
)

// txError maps a driver failure to a coded engine error that says what is
// wrong and what to do, so that no caller prints SQLite's own words. An
// error that already carries an engine code, a cancellation, or an error
// that is not SQLite's passes through (wrapped with what when given).
func txError(path, what string, err error) error {
	var ee *engine.Error
	var se sqlite3.Error
	if err != nil && !errors.As(err, &se) && pgError(err) {
		return pgTxError(path, what, err)
	}
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), !errors.As(err, &se):
		if what == "" {
			return err
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	var e *engine.Error
	switch se.Code {
	case sqlite3.ErrBusy, sqlite3.ErrLocked:
		e = engine.Errorf(engine.EUNAVAIL, "database %s stayed locked by another writer for %s; try again", path, busyTimeout)
	case sqlite3.ErrCorrupt, sqlite3.ErrNotADB:
		e = engine.Errorf(engine.ECORRUPT, "database %s is damaged (a page of the file does not read back as SQLite wrote it); stop writing to it and restore the latest `memtrace backup` output (the .db file, checked against its .sha256), or recover what is readable with `sqlite3 %s .recover`", path, path)
	case sqlite3.ErrFull:
		e = engine.Errorf(engine.EUNAVAIL, "the disk holding %s is full; free some space and run the command again — nothing of this change was written", path)
	case sqlite3.ErrReadonly:
		e = engine.Errorf(engine.EUNAVAIL, "database %s is read-only; check the permissions of the file and of its directory (SQLite writes %s-wal and -shm beside it) — nothing was written", path, path)
	case sqlite3.ErrIoErr:
		e = engine.Errorf(engine.EUNAVAIL, "cannot read or write %s (an I/O error from the disk); check the disk, then run `memtrace backup` or restore the latest backup if the file is damaged", path)
	case sqlite3.ErrPerm, sqlite3.ErrCantOpen, sqlite3.ErrAuth:
		e = engine.Errorf(engine.EUNAVAIL, "cannot open database %s; check the path and its permissions", path)
	case sqlite3.ErrConstraint:
		e = engine.Errorf(engine.EINVALID, "a value was refused by the database (%s); nothing was written — check the values given", constraintField(se))
	case sqlite3.ErrTooBig:
		e = engine.Errorf(engine.EINVALID, "a value is too large for the database; split the text into smaller memories")
	default:
		e = engine.Errorf(engine.EINTERNAL, "database %s failed (SQLite error %d); nothing of this change was written — run the command again, and if it keeps failing check the file with `memtrace backup`", path, int(se.Code))
	}
	return &wrapped{coded: e, cause: err}
}

// constraintField names the constraint a value broke, from SQLite's
// "NOT NULL constraint failed: memories.importance".
func constraintField(se sqlite3.Error) string {
	msg := se.Error()
	kind := "a rule"
	switch se.ExtendedCode {
	case sqlite3.ErrConstraintNotNull:
		kind = "a required field is missing"
	case sqlite3.ErrConstraintUnique, sqlite3.ErrConstraintPrimaryKey:
		kind = "a value must be unique"
	case sqlite3.ErrConstraintCheck:
		kind = "a value is out of range"
	case sqlite3.ErrConstraintForeignKey:
		kind = "a reference points at nothing"
	}
	if _, field, ok := strings.Cut(msg, "failed: "); ok {
		return kind + ": " + field
	}
	return kind
}

// wrapped is a coded error that keeps the driver's error in its chain for
// errors.Is/As (isUnique, tests) while its message is the engine's.
type wrapped struct {
	coded *engine.Error
	cause error
}

func (w *wrapped) Error() string   { return w.coded.Message }
func (w *wrapped) Unwrap() []error { return []error{w.coded, w.cause} }
