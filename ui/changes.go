package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// externalChangeMsg says the engine applied changes from outside the UI
// (Deps.Changes: another process's writes to a shared PostgreSQL space).
type externalChangeMsg struct{}

// waitChanges waits for the next signal on ch (nil: never) until ctx ends.
func waitChanges(ctx context.Context, ch <-chan struct{}) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		select {
		case <-ch:
			return externalChangeMsg{}
		case <-ctx.Done():
			return nil
		}
	}
}
