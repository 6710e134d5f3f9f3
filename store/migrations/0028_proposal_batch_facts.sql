-- Facts that used to live only in prose move into columns (issue 28):
-- withdrawn_by is the proposal whose apply made a withdrawn proposal moot
-- (0 for every other one); reject_note is the curator's reason for a
-- rejection ('' for none). Rows written before this migration carry those
-- facts only in their reason ("…; withdrawn: moot after proposal N (KIND)
-- was applied in batch B", "…; rejected: NOTE"): the Go step that runs
-- with this migration (store/migrate_facts.go) reads them out of the text
-- once and gives the reason back as the proposer wrote it, so that no code
-- parses it again.
ALTER TABLE proposals ADD COLUMN withdrawn_by INTEGER NOT NULL DEFAULT 0;
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
