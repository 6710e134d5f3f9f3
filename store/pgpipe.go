package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A PostgreSQL write transaction is a pipeline. Every writer of a space
// holds the space's seq row lock from its first statement to its commit
// (postgres.go), so each round trip to the server inside it is time no
// other writer of the space can use: a capture used to spend eleven (begin,
// lock, refresh, batch counter, batches row, taken check, memory, audit
// row, capture row, seq and notification, commit). Here the statements
// whose results nobody waits for — BEGIN, the audit rows, the batches and
// captures rows, the seq flush and the notification, COMMIT — wait in the
// pipe and go to the server in one pgx batch with the next statement whose
// result is needed. With what the capture sends ahead (CapturesExistAhead,
// InsertMemoryAhead) a capture's transaction is two round trips:
//
//	BEGIN, lock seq, batch counter, memory id sequence, taken check, refresh
//	batch counter, batches row, memory, audit row, capture row, seq and
//	notification, COMMIT
//
// The statements are those of the transaction run one by one, so it
// writes the same rows; it is still one transaction. (The taken check now
// runs before the batch counter moves, which touches no captures row.) A
// queued statement's failure is reported by the call that sent it (or,
// after a QueryRowContext, which cannot return it, by the transaction):
// the transaction is then rolled back as any other failure is.
//
// The batch counter and the memories id sequence are read with the lock
// and counted up here: every transaction that moves either holds the seq
// row lock, so nobody else can meanwhile; the upsert and the insert still
// run, and check they got the values counted.

// pgPipe is the queue of one PostgreSQL write transaction.
type pgPipe struct {
	conn  *sql.Conn
	batch *pgx.Batch // statements for the next round trip
	begun bool       // BEGIN went to the server
	sent  int        // round trips made
	err   error      // the first failure: the transaction is lost
}

// exec queues a statement whose result is only its success; fail maps its
// error (nil: returned as it is), check, when set, looks at its command tag.
func (p *pgPipe) exec(query string, args []any, fail func(error) error, check func(rows int64) error) {
	qq := p.batch.Queue(pgQuery(query), args...)
	qq.Fn = func(br pgx.BatchResults) error {
		ct, err := br.Exec()
		if err != nil {
			return mapFail(fail, err)
		}
		if check != nil {
			return check(ct.RowsAffected())
		}
		return nil
	}
}

// queue queues a query whose rows scan reads; fail maps its error.
func (p *pgPipe) queue(query string, args []any, scan func(pgx.Rows) error, fail func(error) error) {
	qq := p.batch.Queue(pgQuery(query), args...)
	qq.Fn = func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return mapFail(fail, err)
		}
		defer rows.Close()
		if err := scan(rows); err != nil {
			return mapFail(fail, err)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapFail(fail, err)
		}
		return nil
	}
}

// query is queue and the round trip that brings its rows: the error is
// the first failure of the queued statements or of this one, each mapped
// by its own fail.
func (p *pgPipe) query(ctx context.Context, query string, args []any, scan func(pgx.Rows) error, fail func(error) error) error {
	if p.err != nil {
		return p.err
	}
	p.queue(query, args, scan, fail)
	return p.flush(ctx)
}

func mapFail(fail func(error) error, err error) error {
	if fail == nil {
		return err
	}
	return fail(err)
}

// flush sends the queued statements in one round trip and runs their
// handlers.
func (p *pgPipe) flush(ctx context.Context) error {
	if p.err != nil {
		return p.err
	}
	if p.batch.Len() == 0 {
		return nil
	}
	b := p.batch
	p.batch = &pgx.Batch{}
	p.begun = true
	p.sent++
	err := p.conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("not a pgx connection")
		}
		return c.Conn().SendBatch(ctx, b).Close()
	})
	if err != nil {
		p.err = err
	}
	return err
}

// pgBeginSQL are the statements that open a write transaction: BEGIN, the
// seq row lock, and the batch counter (after the lock, in a statement of
// its own: a statement's snapshot is taken when it starts, before the
// lock's wait).
const pgBatchCounterSQL = `SELECT COALESCE((SELECT value FROM counters WHERE name = 'batch'), 0)`

// begin queues what opens tx: they go with its first statement.
func (p *pgPipe) begin(tx *Tx) {
	p.exec(`BEGIN`, nil, nil, nil)
	p.queue(lockSeqSQL, nil, func(rows pgx.Rows) error {
		if !rows.Next() {
			return errors.New("no seq counter")
		}
		if err := rows.Scan(&tx.seq); err != nil {
			return err
		}
		tx.seqLoaded = true
		return nil
	}, func(err error) error { return fmt.Errorf("lock seq: %w", err) })
	p.queue(pgBatchCounterSQL, nil, func(rows pgx.Rows) error {
		if !rows.Next() {
			return errors.New("no row")
		}
		if err := rows.Scan(&tx.batchCount); err != nil {
			return err
		}
		tx.batchLoaded = true
		return nil
	}, func(err error) error { return fmt.Errorf("read batch counter: %w", err) })
	// The id the memories table gives next: its identity sequence's last
	// value plus one; NULL (no prediction) before its first nextval or
	// after a setval that left it uncalled.
	p.queue(pgNextIDSQL, nil, func(rows pgx.Rows) error {
		if !rows.Next() {
			return errors.New("no row")
		}
		var last sql.NullInt64
		if err := rows.Scan(&last); err != nil {
			return err
		}
		tx.nextID, tx.idLoaded = last.Int64+1, last.Valid
		return nil
	}, func(err error) error { return fmt.Errorf("read memory id sequence: %w", err) })
}

const pgNextIDSQL = `SELECT pg_sequence_last_value(pg_get_serial_sequence('memories', 'id')::regclass)`

// beginLen is how many statements begin queues.
const beginLen = 4

// commit sends what is queued and COMMIT. A transaction that sent nothing
// but its opening statements ran nothing: there is nothing to commit.
func (p *pgPipe) commit(ctx context.Context) error {
	if p.err != nil {
		return p.err
	}
	if !p.begun && p.batch.Len() <= beginLen {
		p.batch = &pgx.Batch{}
		return nil
	}
	qq := p.batch.Queue(`COMMIT`)
	qq.Fn = func(br pgx.BatchResults) error {
		ct, err := br.Exec()
		if err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		if ct.String() != "COMMIT" { // the server rolled back a failed transaction
			return fmt.Errorf("commit: the server answered %s", ct.String())
		}
		return nil
	}
	return p.flush(ctx)
}

// rollback ends a transaction that failed. It runs even when ctx has
// ended; a connection left inside a transaction is not reused (pgx's
// ResetSession drops it) and the server then rolls it back.
func (p *pgPipe) rollback(ctx context.Context) {
	if !p.begun {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_, _ = p.conn.ExecContext(rctx, `ROLLBACK`)
}

// runPGWrite is run for a PostgreSQL write: fn's statements and the seq
// flush, notification and commit on one connection, through the pipe.
func (db *DB) runPGWrite(ctx context.Context, fn func(tx *Tx) error) error {
	db.writing.enter()
	defer db.writing.leave()
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return txError(db.path, "begin transaction", err)
	}
	defer conn.Close()
	p := &pgPipe{conn: conn, batch: &pgx.Batch{}}
	tx := &Tx{tx: sqlTx{run: conn, pg: true, pipe: p}, now: db.now}
	defer tx.close()
	p.begin(tx)
	cause := func(err error) error {
		p.rollback(ctx)
		if p.err != nil {
			return p.err // the cause; err may be what it left behind
		}
		return err
	}
	if err := fn(tx); err != nil {
		return txError(db.path, "", cause(err))
	}
	err = p.err
	if err == nil {
		err = tx.flushAndNotify(ctx, db.space)
	}
	if err == nil {
		err = p.commit(ctx)
	}
	if err != nil {
		err = cause(err)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return cancelled("commit", ctxErr)
		}
		return txError(db.path, "", err)
	}
	return nil
}
