package ui

import (
	"context"

	"memtrace/engine"
)

// The Curate tab reads proposals and batches; the in-memory double has
// neither proposals nor batches of its own (the Curate tab's tests use a
// real SQLite store).

func (s *memStore) FindProposals(ctx context.Context, f engine.ProposalFilter) ([]*engine.Proposal, error) {
	return nil, nil
}

func (s *memStore) Batches(ctx context.Context, limit int) ([]engine.BatchInfo, error) {
	return nil, nil
}
