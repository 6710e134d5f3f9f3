package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"memtrace/engine"
)

// pgError reports whether err came from PostgreSQL or from reaching it.
func pgError(err error) bool {
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	return errors.As(err, &pe) || errors.As(err, &ce) || pgconn.SafeToRetry(err) || pgconn.Timeout(err)
}

// pgTxError maps a PostgreSQL failure to a coded engine error that says
// what is wrong and what to do (txError's counterpart for a space).
func pgTxError(path, what string, err error) error {
	var ee *engine.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), !pgError(err):
		if what == "" {
			return err
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	var e *engine.Error
	var ce *pgconn.ConnectError
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &ce):
		e = engine.Errorf(engine.EUNAVAIL, "cannot reach PostgreSQL at %s (%s); check that the server runs and the address, user and password in --db are right — nothing was written", path, connectCause(ce))
	case errors.As(err, &pe):
		switch {
		case pe.Code == "40001" || pe.Code == "40P01":
			e = engine.Errorf(engine.EUNAVAIL, "database %s: this change met a concurrent one (%s); nothing of it was written — run the command again", path, pe.Message)
		case pe.Code == "55P03" || pe.Code == "57014":
			e = engine.Errorf(engine.EUNAVAIL, "database %s stayed locked by another writer; try again", path)
		case strings.HasPrefix(pe.Code, "23"):
			e = engine.Errorf(engine.EINVALID, "a value was refused by the database (%s); nothing was written — check the values given", pe.ConstraintName+": "+pe.Message)
		case strings.HasPrefix(pe.Code, "28"):
			e = engine.Errorf(engine.EUNAVAIL, "PostgreSQL at %s refused the login (%s); check the user and password in --db", path, pe.Message)
		case pe.Code == "3D000":
			e = engine.Errorf(engine.ENOTFOUND, "PostgreSQL at %s has no such database (%s); create it (createdb) or name another in --db", path, pe.Message)
		case pe.Code == "42501":
			e = engine.Errorf(engine.EUNAVAIL, "PostgreSQL refused access (%s); grant the user of --db rights on its space, or use another space", pe.Message)
		case strings.HasPrefix(pe.Code, "53"):
			e = engine.Errorf(engine.EUNAVAIL, "PostgreSQL at %s is out of resources (%s); nothing of this change was written — try again later", path, pe.Message)
		case strings.HasPrefix(pe.Code, "57") || strings.HasPrefix(pe.Code, "08"):
			e = engine.Errorf(engine.EUNAVAIL, "PostgreSQL at %s went away (%s); nothing of this change was written — run the command again", path, pe.Message)
		default:
			e = engine.Errorf(engine.EINTERNAL, "database %s failed (PostgreSQL %s: %s); nothing of this change was written", path, pe.Code, pe.Message)
		}
	default:
		e = engine.Errorf(engine.EUNAVAIL, "lost the connection to PostgreSQL at %s (%v); nothing of this change was written — run the command again", path, err)
	}
	return &wrapped{coded: e, cause: err}
}

func connectCause(ce *pgconn.ConnectError) string {
	if u := errors.Unwrap(ce); u != nil {
		return u.Error()
	}
	return ce.Error()
}
