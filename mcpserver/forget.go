package mcpserver

import (
	"context"

	"memtrace/curate"
	"memtrace/engine"
)

// ActionQuarantine is the audit action of a memory forgotten through MCP.
const ActionQuarantine = curate.ActionQuarantine

// Forget quarantines the memory with this id (or, when id is 0, this key)
// through curate.Forget, as actor "mcp": one transaction, one forget batch,
// an applied quarantine proposal carrying the reason. Nothing is deleted.
// Forgetting a quarantined memory changes nothing.
func Forget(ctx context.Context, e *engine.Engine, id int64, key, reason string) (ForgetOut, error) {
	f, err := curate.Forget(ctx, e, id, key, reason, Actor)
	if engine.ErrorCode(err) == engine.ENOTFOUND {
		return ForgetOut{}, engine.Errorf(engine.ENOTFOUND, "%s: memory_recall lists the ids and keys of recalled memories", engine.ErrorMessage(err))
	} else if err != nil {
		return ForgetOut{}, err
	}
	return ForgetOut{ID: f.Memory.ID, Key: f.Memory.Key, Content: f.Memory.Content, Status: string(engine.StatusQuarantined),
		Changed: f.Changed, Batch: f.Batch}, nil
}
