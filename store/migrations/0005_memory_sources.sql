-- Where an imported memory came from (`memtrace import memories`): the
-- source kind (jsonl, chroma, mem0, memory-files), the id the source gave
-- it, where in the source it stood (line, row, file:line) and whatever
-- metadata the source kept, as JSON. Captured memories have no row here.
CREATE TABLE memory_sources (
	memory_id   INTEGER PRIMARY KEY REFERENCES memories (id),
	source      TEXT NOT NULL,
	source_id   TEXT NOT NULL,
	position    TEXT NOT NULL DEFAULT '',
	metadata    TEXT NOT NULL DEFAULT '{}',
	imported_at TEXT NOT NULL
);
CREATE INDEX memory_sources_source ON memory_sources (source, source_id);
