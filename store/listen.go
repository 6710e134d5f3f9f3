package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listen keeps a connection of its own LISTENing on the space's channel
// until ctx ends, and calls onChange with every notification (in commit
// order). When the connection is lost it reconnects, with a backoff of up
// to two seconds, and calls onResync once it listens again: changes
// committed while it was away sent notifications nobody heard, so the
// listener must catch up on everything since what it last applied. (An
// engine does that with Refresh, which asks for every memory whose seq is
// above the last it applied: complete, since every write takes the next
// seq in commit order and nothing is ever deleted.) onResync is also
// called once the first LISTEN is in place, for what was committed between
// the caller's own load and that moment.
//
// On a SQLite database there are no notifications: Listen polls the
// file's data_version about once a second (pollDataVersion) and calls
// onResync when another process committed, until ctx ends.
func (db *DB) Listen(ctx context.Context, onChange func(Notification), onResync func()) error {
	if !db.pg {
		db.pollDataVersion(ctx, onResync)
		return nil
	}
	cfg, space, err := pgConfig(db.dsn)
	if err != nil {
		return err
	}
	channel := pgx.Identifier{NotifyChannel(space)}.Sanitize()
	backoff := 50 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err == nil {
			_, err = conn.Exec(ctx, `LISTEN `+channel)
		}
		if err == nil {
			backoff = 50 * time.Millisecond
			onResync()
			err = listenLoop(ctx, conn, onChange)
		}
		if conn != nil {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			conn.Close(cctx)
			cancel()
		}
		if ctx.Err() != nil {
			return nil
		}
		_ = err // lost: try again after the backoff
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
	return nil
}

func listenLoop(ctx context.Context, conn *pgx.Conn, onChange func(Notification)) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var note Notification
		if err := json.Unmarshal([]byte(n.Payload), &note); err != nil {
			return errors.New("notification payload: " + err.Error())
		}
		onChange(note)
	}
}

// Listener runs Listen in the background; Stop ends it and waits.
type Listener struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// StartListening runs Listen(ctx, …) in a goroutine until Stop. Both
// callbacks are called from that goroutine.
func (db *DB) StartListening(ctx context.Context, onChange func(Notification), onResync func()) *Listener {
	ctx, cancel := context.WithCancel(ctx)
	l := &Listener{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(l.done)
		db.Listen(ctx, onChange, onResync)
	}()
	return l
}

// Stop ends the listener and waits for it.
func (l *Listener) Stop() {
	if l == nil {
		return
	}
	l.cancel()
	<-l.done
}
