-- PostgreSQL twin of migrations/0005_memory_sources.sql.
CREATE TABLE memory_sources (
	memory_id   BIGINT PRIMARY KEY REFERENCES memories (id),
	source      TEXT NOT NULL,
	source_id   TEXT NOT NULL,
	position    TEXT NOT NULL DEFAULT '',
	metadata    TEXT NOT NULL DEFAULT '{}',
	imported_at TEXT NOT NULL
);
CREATE INDEX memory_sources_source ON memory_sources (source, source_id);
