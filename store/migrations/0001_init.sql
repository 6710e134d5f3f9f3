-- The tables of DESIGN.md. Times are fixed-width RFC 3339 UTC text with
-- nanoseconds ("2006-01-02T15:04:05.000000000Z"), so they sort as text and
-- round-trip exactly. JSON columns hold the engine's own JSON encodings.

-- seq is a global write counter: every insert or update of a memory takes
-- the next value, so a reader can pick up what changed since it last looked.
CREATE TABLE counters (
	name  TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
INSERT INTO counters (name, value) VALUES ('seq', 0);

CREATE TABLE memories (
	id               INTEGER PRIMARY KEY,
	key              TEXT,             -- NULL when the memory has no external id
	content          TEXT    NOT NULL,
	kind             TEXT    NOT NULL DEFAULT '',
	type             TEXT    NOT NULL DEFAULT '',
	orig_type        TEXT    NOT NULL DEFAULT '',
	status           TEXT    NOT NULL DEFAULT 'active',
	tier             TEXT    NOT NULL DEFAULT 'warm',
	scope            TEXT    NOT NULL DEFAULT 'global',
	importance       REAL    NOT NULL DEFAULT 0,
	role             TEXT    NOT NULL DEFAULT '',
	session          TEXT    NOT NULL DEFAULT '',
	created_at       TEXT    NOT NULL,
	last_accessed_at TEXT    NOT NULL,
	access_count     INTEGER NOT NULL DEFAULT 0,
	boost            REAL    NOT NULL DEFAULT 0,
	boost_at         TEXT    NOT NULL,
	hash             TEXT    NOT NULL DEFAULT '',
	embedding        BLOB,             -- little-endian float32
	embedder         TEXT    NOT NULL DEFAULT '',
	seq              INTEGER NOT NULL
);
CREATE UNIQUE INDEX memories_key ON memories (key); -- NULLs (no key) never collide
CREATE INDEX memories_seq ON memories (seq);
CREATE INDEX memories_status ON memories (status);
CREATE INDEX memories_type ON memories (type);
CREATE INDEX memories_tier ON memories (tier);

-- Every message offered to the capture pipeline, kept or dropped.
CREATE TABLE captures (
	id         INTEGER PRIMARY KEY,
	message_id TEXT    NOT NULL DEFAULT '',
	session    TEXT    NOT NULL DEFAULT '',
	role       TEXT    NOT NULL DEFAULT '',
	project    TEXT    NOT NULL DEFAULT '',
	text       TEXT    NOT NULL,
	at         TEXT    NOT NULL,
	outcome    TEXT    NOT NULL,
	dropped_by TEXT    NOT NULL DEFAULT '',
	reason     TEXT    NOT NULL DEFAULT '',
	memory_id  INTEGER REFERENCES memories (id),
	trail      TEXT    NOT NULL DEFAULT '[]',
	created_at TEXT    NOT NULL
);
CREATE INDEX captures_message_id ON captures (message_id);
CREATE INDEX captures_outcome ON captures (outcome, dropped_by, reason);

CREATE TABLE corrections (
	id          INTEGER PRIMARY KEY,
	lesson_key  TEXT    NOT NULL UNIQUE,
	context     TEXT    NOT NULL DEFAULT '',
	correction  TEXT    NOT NULL DEFAULT '',
	lesson      TEXT    NOT NULL DEFAULT '',
	scope       TEXT    NOT NULL DEFAULT '',
	count       INTEGER NOT NULL DEFAULT 0,
	first_seen  TEXT    NOT NULL,
	last_seen   TEXT    NOT NULL,
	status      TEXT    NOT NULL DEFAULT 'pending',
	occurrences TEXT    NOT NULL DEFAULT '[]'
);
CREATE INDEX corrections_status ON corrections (status);

CREATE TABLE proposals (
	id          INTEGER PRIMARY KEY,
	kind        TEXT    NOT NULL,
	memory_id   INTEGER REFERENCES memories (id),
	target_type TEXT    NOT NULL DEFAULT '',
	proposer    TEXT    NOT NULL DEFAULT '',
	verdict     TEXT,
	model       TEXT    NOT NULL DEFAULT '',
	prompt_hash TEXT    NOT NULL DEFAULT '',
	confidence  REAL    NOT NULL DEFAULT 0,
	reason      TEXT    NOT NULL DEFAULT '',
	status      TEXT    NOT NULL DEFAULT 'pending',
	decided_by  TEXT    NOT NULL DEFAULT '',
	decided_at  TEXT    NOT NULL,
	batch       TEXT    NOT NULL DEFAULT '',
	created_at  TEXT    NOT NULL
);
CREATE INDEX proposals_status ON proposals (status, kind);
CREATE INDEX proposals_memory ON proposals (memory_id);
CREATE INDEX proposals_batch ON proposals (batch);

-- Every mutation of a memory. before/after are JSON of engine.Memory (which
-- leaves out the embedding); when a mutation replaced the embedding, the old
-- one is kept in before_embedding so a rollback restores it exactly.
CREATE TABLE audit (
	id               INTEGER PRIMARY KEY,
	batch            TEXT    NOT NULL DEFAULT '',
	actor            TEXT    NOT NULL,
	action           TEXT    NOT NULL,
	memory_id        INTEGER NOT NULL REFERENCES memories (id),
	before           TEXT,
	after            TEXT,
	before_embedding BLOB,
	before_embedder  TEXT,
	at               TEXT    NOT NULL
);
CREATE INDEX audit_memory ON audit (memory_id, id);
CREATE INDEX audit_batch ON audit (batch, id);

CREATE TABLE golden_runs (
	id          TEXT PRIMARY KEY,
	file        TEXT NOT NULL DEFAULT '',
	config_hash TEXT NOT NULL DEFAULT '',
	started_at  TEXT NOT NULL,
	summary     TEXT,
	results     TEXT
);
CREATE INDEX golden_runs_file ON golden_runs (file, started_at);
