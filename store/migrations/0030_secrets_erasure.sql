-- Erasure (issue 31): the one exception to "nothing is hard-deleted". An
-- erased memory's row stays as a tombstone (status 'erased', content
-- '[erased]', no vector) and gains a row here: who, when, why, and a
-- salted SHA-256 of the text it held (salt and hash in hex), so the history
-- stays honest without keeping a byte of the text.
CREATE TABLE erasures (
	id         INTEGER PRIMARY KEY,
	batch      TEXT    NOT NULL,
	memory_id  INTEGER NOT NULL REFERENCES memories (id),
	memory_key TEXT    NOT NULL DEFAULT '',
	actor      TEXT    NOT NULL,
	reason     TEXT    NOT NULL,
	salt       TEXT    NOT NULL,
	text_hash  TEXT    NOT NULL,
	at         TEXT    NOT NULL
);
CREATE INDEX erasures_memory ON erasures (memory_id);

-- Files memtrace wrote outside the database that may hold memory text
-- (backups, Markdown exports, --otel files): an erasure lists the ones
-- written before it, since it cannot reach into them.
CREATE TABLE artifacts (
	id   INTEGER PRIMARY KEY,
	kind TEXT NOT NULL,
	path TEXT NOT NULL,
	at   TEXT NOT NULL
);
CREATE INDEX artifacts_at ON artifacts (at);
