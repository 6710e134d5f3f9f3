-- PostgreSQL twin of migrations/0028_proposal_batch_facts.sql; the same Go
-- step moves the facts of older rows out of their reason.
ALTER TABLE proposals ADD COLUMN withdrawn_by BIGINT NOT NULL DEFAULT 0;
ALTER TABLE proposals ADD COLUMN reject_note TEXT NOT NULL DEFAULT '';

-- batches records what the store knows of each batch id it issues: its
-- kind (engine.BatchCapture, BatchApprove, … BatchRollback) and, for a
-- rollback, the batch it undid, so that no reader takes them off the id.
-- The Go step fills it for the batches of older rows from their ids, once.
CREATE TABLE batches (
	batch       TEXT PRIMARY KEY,
	kind        TEXT NOT NULL DEFAULT '',
	rollback_of TEXT NOT NULL DEFAULT ''
);
CREATE INDEX batches_rollback_of ON batches (rollback_of);
