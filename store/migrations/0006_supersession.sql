-- Knowledge updates: a newer memory can supersede an older fact about the
-- same subject. Nothing is deleted: the old row keeps its status and gains
-- superseded_by (the newer memory), valid_to (when the old fact stopped
-- holding: valid time) and superseded_at (when the link was recorded:
-- transaction time). The link is part of the row, so the audit log holds it
-- in before/after and a rollback of the batch that made it removes it.
ALTER TABLE memories ADD COLUMN superseded_by INTEGER REFERENCES memories (id);
ALTER TABLE memories ADD COLUMN valid_to TEXT;
ALTER TABLE memories ADD COLUMN superseded_at TEXT;
CREATE INDEX memories_superseded_by ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
