-- PostgreSQL twin of migrations/0006_supersession.sql.
ALTER TABLE memories ADD COLUMN superseded_by BIGINT REFERENCES memories (id);
ALTER TABLE memories ADD COLUMN valid_to TEXT;
ALTER TABLE memories ADD COLUMN superseded_at TEXT;
CREATE INDEX memories_superseded_by ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
