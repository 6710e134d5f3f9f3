-- Each audit row names the change it made to its memory
-- (engine.ClassifyChange of its before and after: created, quarantined,
-- restored, archived, moved, retyped, updated, superseded, unlinked; ''
-- for none), so that the batch history counts a batch's effect with one
-- GROUP BY on an index instead of decoding every row's JSON. Rows written
-- before this migration are classified, in the same transaction, by the Go
-- step that runs with it (store/migrate_steps.go): one function, not a
-- second copy of the rule in SQL.
ALTER TABLE audit ADD COLUMN change_kind TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_batch_change ON audit (batch, change_kind, action);
