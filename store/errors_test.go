package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"

	"memtrace/engine"
)

// Every SQLite result code a user can meet maps to a coded engine error
// with what to do, and the driver's words stay out of the message.
func TestTxErrorMapsResultCodes(t *testing.T) {
	for _, tc := range []struct {
		err  sqlite3.Error
		code string
		want string
	}{
		{sqlite3.Error{Code: sqlite3.ErrCorrupt}, engine.ECORRUPT, "memtrace backup"},
		{sqlite3.Error{Code: sqlite3.ErrNotADB}, engine.ECORRUPT, "memtrace backup"},
		{sqlite3.Error{Code: sqlite3.ErrFull}, engine.EUNAVAIL, "disk holding /x/m.db is full"},
		{sqlite3.Error{Code: sqlite3.ErrReadonly}, engine.EUNAVAIL, "is read-only; check the permissions"},
		{sqlite3.Error{Code: sqlite3.ErrIoErr}, engine.EUNAVAIL, "I/O error"},
		{sqlite3.Error{Code: sqlite3.ErrBusy}, engine.EUNAVAIL, "locked by another writer"},
		{sqlite3.Error{Code: sqlite3.ErrConstraint, ExtendedCode: sqlite3.ErrConstraintNotNull}, engine.EINVALID, "a required field is missing"},
		{sqlite3.Error{Code: sqlite3.ErrPerm}, engine.EUNAVAIL, "permissions"},
		{sqlite3.Error{Code: sqlite3.ErrSchema}, engine.EINTERNAL, "SQLite error 17"},
	} {
		err := txError("/x/m.db", "read", tc.err)
		if engine.ErrorCode(err) != tc.code || !strings.Contains(engine.ErrorMessage(err), tc.want) {
			t.Errorf("code %d: %s %q, want %s with %q", tc.err.Code, engine.ErrorCode(err), engine.ErrorMessage(err), tc.code, tc.want)
		}
		if strings.Contains(engine.ErrorMessage(err), tc.err.Error()) {
			t.Errorf("code %d: the message carries the driver's text %q", tc.err.Code, tc.err.Error())
		}
		var se sqlite3.Error
		if !errors.As(err, &se) || se.Code != tc.err.Code {
			t.Errorf("code %d: the driver error left the chain", tc.err.Code)
		}
	}
	// Coded errors pass through as they are.
	coded := engine.Errorf(engine.ENOTFOUND, "no memory 3")
	if err := txError("/x/m.db", "", coded); err != error(coded) {
		t.Errorf("a coded error was rewrapped: %v", err)
	}
}
