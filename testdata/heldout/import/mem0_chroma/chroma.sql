-- chroma.sqlite3 of a Chroma >= 1.5 persistent directory (Rust sqlite segment; array metadata since 1.5.0).
-- Schema: chroma-core/chroma rust/sqlite/migrations/{sysdb,metadb,embeddings_queue}/*.sqlite.sql applied in order
-- (sysdb 00001-00010, metadb 00001-00006, embeddings_queue 00001-00002), written here as the resulting CREATE statements.
-- The 'migrations' bookkeeping table (dir, version, filename, sql, hash) is left out; vectors live in the HNSW files
-- of the vector segment directory, not in this database, and the embeddings_queue is shown already purged.
-- Collection 'mem0' is written the way mem0 mem0/vector_stores/chroma.py insert() writes: collection.add(ids, embeddings,
-- metadatas) with NO documents, the text in metadata key 'data'. Collection 'team_notes' is a plain Chroma use with documents.
BEGIN TRANSACTION;
CREATE TABLE embeddings_queue (
    seq_id INTEGER PRIMARY KEY,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    operation INTEGER NOT NULL,
    topic TEXT NOT NULL,
    id TEXT NOT NULL,
    vector BLOB,
    encoding TEXT,
    metadata TEXT
);
CREATE TABLE embeddings_queue_config (
    id INTEGER PRIMARY KEY,
    config_json_str TEXT
);
CREATE TABLE embeddings (
    id INTEGER PRIMARY KEY,
    segment_id TEXT NOT NULL,
    embedding_id TEXT NOT NULL,
    seq_id BLOB NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (segment_id, embedding_id)
);
CREATE TABLE embedding_metadata (
    id INTEGER REFERENCES embeddings(id),
    key TEXT NOT NULL,
    string_value TEXT,
    int_value INTEGER,
    float_value REAL,
    bool_value INTEGER,
    PRIMARY KEY (id, key)
);
CREATE TABLE max_seq_id (
    segment_id TEXT PRIMARY KEY,
    seq_id INTEGER
);
CREATE VIRTUAL TABLE embedding_fulltext_search USING fts5(string_value, tokenize='trigram');
CREATE INDEX IF NOT EXISTS embedding_metadata_int_value ON embedding_metadata (key, int_value) WHERE int_value IS NOT NULL;
CREATE INDEX IF NOT EXISTS embedding_metadata_float_value ON embedding_metadata (key, float_value) WHERE float_value IS NOT NULL;
CREATE INDEX IF NOT EXISTS embedding_metadata_string_value ON embedding_metadata (key, string_value) WHERE string_value IS NOT NULL;
CREATE TABLE IF NOT EXISTS embedding_metadata_array (
    id INTEGER NOT NULL REFERENCES embeddings(id),
    key TEXT NOT NULL,
    string_value TEXT,
    int_value INTEGER,
    float_value REAL,
    bool_value INTEGER
);
CREATE INDEX IF NOT EXISTS embedding_metadata_array_id_key ON embedding_metadata_array (id, key);
CREATE INDEX IF NOT EXISTS embedding_metadata_array_key_string ON embedding_metadata_array (key, string_value) WHERE string_value IS NOT NULL;
CREATE INDEX IF NOT EXISTS embedding_metadata_array_key_int ON embedding_metadata_array (key, int_value) WHERE int_value IS NOT NULL;
CREATE INDEX IF NOT EXISTS embedding_metadata_array_key_float ON embedding_metadata_array (key, float_value) WHERE float_value IS NOT NULL;
CREATE TABLE collection_metadata (
    collection_id TEXT REFERENCES collections(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    str_value TEXT,
    int_value INTEGER,
    float_value REAL,
    bool_value INTEGER,
    PRIMARY KEY (collection_id, key)
);
CREATE TABLE segment_metadata (
    segment_id TEXT  REFERENCES segments(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    str_value TEXT,
    int_value INTEGER,
    float_value REAL,
    bool_value INTEGER,
    PRIMARY KEY (segment_id, key)
);
CREATE TABLE tenants (
    id TEXT PRIMARY KEY,
    UNIQUE (id)
);
CREATE TABLE databases (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    UNIQUE (tenant_id, name)
);
CREATE TABLE collections (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    dimension INTEGER,
    database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
    config_json_str TEXT,
    schema_str TEXT,
    UNIQUE (name, database_id)
);
CREATE TABLE maintenance_log (
  id INT PRIMARY KEY,
  timestamp INT NOT NULL,
  operation TEXT NOT NULL
);
CREATE TABLE segments (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    scope TEXT NOT NULL,
    collection TEXT REFERENCES collection(id) NOT NULL
);
INSERT INTO tenants (id) VALUES ('default_tenant');
INSERT INTO databases (id, name, tenant_id) VALUES ('00000000-0000-0000-0000-000000000000', 'default_database', 'default_tenant');
INSERT INTO collections (id, name, dimension, database_id, config_json_str, schema_str) VALUES ('4f0a2c7e-9d15-4b3e-8a62-1c7d9e0f5b34', 'mem0', 1536, '00000000-0000-0000-0000-000000000000', '{"hnsw": {"space": "l2", "ef_construction": 100, "ef_search": 100, "max_neighbors": 16, "resize_factor": 1.2, "sync_threshold": 1000}, "spann": null, "embedding_function": null}', NULL);
INSERT INTO collections (id, name, dimension, database_id, config_json_str, schema_str) VALUES ('b7e3d1f9-2a64-4c08-9e5b-6d0f1a8c3e72', 'team_notes', 384, '00000000-0000-0000-0000-000000000000', '{"hnsw": {"space": "l2", "ef_construction": 100, "ef_search": 100, "max_neighbors": 16, "resize_factor": 1.2, "sync_threshold": 1000}, "spann": null, "embedding_function": null}', NULL);
INSERT INTO collection_metadata (collection_id, key, str_value, int_value, float_value, bool_value) VALUES ('b7e3d1f9-2a64-4c08-9e5b-6d0f1a8c3e72', 'description', 'team wiki chunks', NULL, NULL, NULL);
INSERT INTO segments (id, type, scope, collection) VALUES ('1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e51', 'urn:chroma:segment/vector/hnsw-local-persisted', 'VECTOR', '4f0a2c7e-9d15-4b3e-8a62-1c7d9e0f5b34');
INSERT INTO segments (id, type, scope, collection) VALUES ('9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', 'urn:chroma:segment/metadata/sqlite', 'METADATA', '4f0a2c7e-9d15-4b3e-8a62-1c7d9e0f5b34');
INSERT INTO segments (id, type, scope, collection) VALUES ('2e3f4051-6b7c-4d8e-9f0a-1b2c3d4e5f63', 'urn:chroma:segment/vector/hnsw-local-persisted', 'VECTOR', 'b7e3d1f9-2a64-4c08-9e5b-6d0f1a8c3e72');
INSERT INTO segments (id, type, scope, collection) VALUES ('8b7a6950-4e3d-4c2b-1a0f-9e8d7c6b5a64', 'urn:chroma:segment/metadata/sqlite', 'METADATA', 'b7e3d1f9-2a64-4c08-9e5b-6d0f1a8c3e72');
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (1, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '0c1f5e8a-3b27-4d90-a6e4-8f2d1b7c9a05', 1, '2026-03-02 17:20:41');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (1, 'data', 'Name is Dana Whitfield', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (1, 'hash', 'bd300610ff969abd0687a9e094650cd9', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (1, 'created_at', '2026-03-02T17:20:41.118204+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (1, 'updated_at', '2026-03-02T17:20:41.118204+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (1, 'text_lemmatized', 'name is dana whitfield', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (1, 'user_id', 'dana', NULL, NULL, NULL);
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (2, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '1b7e4d92-0a63-4f5c-9e18-2d6c8a0f3b47', 2, '2026-03-02 17:20:41');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (2, 'data', 'Allergic to peanuts and tree nuts', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (2, 'hash', 'a07b30553f23bdaa566b3557fe8b6d46', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (2, 'created_at', '2026-03-02T17:20:41.530977+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (2, 'updated_at', '2026-03-02T17:20:41.530977+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (2, 'text_lemmatized', 'allergic to peanuts and tree nuts', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (2, 'user_id', 'dana', NULL, NULL, NULL);
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (2, 'categories', 'health');
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (2, 'categories', 'food');
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (3, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '2a9d3c61-7e04-4b8f-b25a-9c0e1f6d4a38', 3, '2026-03-09 08:02:15');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (3, 'data', 'Prefers window seats on flights', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (3, 'hash', '3655d795999a9f213794ca543846e1f3', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (3, 'created_at', '2026-03-09T08:02:15.004411+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (3, 'updated_at', '2026-04-21T10:11:52.667120+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (3, 'text_lemmatized', 'prefers window seats on flights', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (3, 'user_id', 'dana', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (3, 'agent_id', 'travel-planner', NULL, NULL, NULL);
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (3, 'categories', 'travel');
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (4, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '3e6b0f27-c8d1-4a59-8f73-1d4e9b2a6c10', 4, '2026-03-15 06:45:09');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'data', 'Runs 5k every Saturday morning', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'hash', '937ae9cb6bcf5d2c63985f4878555889', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'created_at', '2026-03-15T06:45:09.870321+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'updated_at', '2026-03-15T06:45:09.870321+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'text_lemmatized', 'runs 5k every saturday morning', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'user_id', 'dana', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'run_id', 'onboarding-0315', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'priority', NULL, 3, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (4, 'confidence', NULL, NULL, 0.82, NULL);
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (5, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '4d2c8a15-6f39-4e07-a1b4-7e0c3d9f5b26', 5, '2026-04-01 19:33:27');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'data', 'Keeps a sourdough starter named Gerald', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'hash', '0d059f557f9acc6e03a9e729e44bc3f6', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'created_at', '2026-04-01T19:33:27.442089+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'updated_at', '2026-04-01T19:33:27.442089+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'text_lemmatized', 'keeps a sourdough starter named gerald', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'user_id', 'dana', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'actor_id', 'dana', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'role', 'user', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (5, 'pinned', NULL, NULL, NULL, 1);
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (6, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '5f8e1b43-2d70-4c96-b8a5-0e3f7c1d9a62', 6, '2026-03-05 12:09:58');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (6, 'data', '매운 음식을 못 먹는다', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (6, 'hash', 'e8e5a7da7468ff81f1e5c770f97b02d4', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (6, 'created_at', '2026-03-05T12:09:58.213764+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (6, 'updated_at', '2026-03-05T12:09:58.213764+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (6, 'text_lemmatized', '매운 음식을 못 먹는다', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (6, 'user_id', 'minho', NULL, NULL, NULL);
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (6, 'categories', 'food');
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (6, 'categories', 'preference');
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (6, 'tags', 'spice');
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (6, 'tags', 'diet');
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (7, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '6a0d9c74-1e85-4b23-9f6c-3a7b2e0d8f19', 7, '2026-03-05 12:09:58');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (7, 'data', 'Works at Toss as a staff engineer', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (7, 'hash', '3572af133e4e7b2a6f2ca25764928bdc', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (7, 'created_at', '2026-03-05T12:09:58.690155+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (7, 'updated_at', '2026-06-30T01:47:13.305948+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (7, 'text_lemmatized', 'works at toss as a staff engineer', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (7, 'user_id', 'minho', NULL, NULL, NULL);
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (8, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '7c3b2e86-9f14-4d0a-a7e2-5b8c1f6d0e43', 8, '2026-03-20 23:18:40');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (8, 'data', '딸이 올해 초등학교에 입학했다', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (8, 'hash', '883f6c9fb9830acadab5414aee27ac58', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (8, 'created_at', '2026-03-20T23:18:40.551203+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (8, 'updated_at', '2026-03-20T23:18:40.551203+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (8, 'text_lemmatized', '딸이 올해 초등학교에 입학했다', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (8, 'user_id', 'minho', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (8, 'agent_id', 'family-helper', NULL, NULL, NULL);
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (9, '9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', '8e5a4f09-3c62-4b1d-8e97-6f2a0c5d3b71', 9, '2026-05-11 04:26:35');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (9, 'data', 'Prefers replies in Korean, code comments in English', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (9, 'hash', '830a48a99e5ae48f5d58737d53931e7f', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (9, 'created_at', '2026-05-11T04:26:35.039874+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (9, 'updated_at', '2026-05-11T04:26:35.039874+00:00', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (9, 'text_lemmatized', 'prefers replies in korean code comments in english', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (9, 'user_id', 'minho', NULL, NULL, NULL);
INSERT INTO embedding_metadata_array (id, key, string_value) VALUES (9, 'categories', 'communication');
INSERT INTO embedding_metadata_array (id, key, int_value) VALUES (9, 'reviewed_on', 20260511);
INSERT INTO embedding_metadata_array (id, key, int_value) VALUES (9, 'reviewed_on', 20260602);
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (10, '8b7a6950-4e3d-4c2b-1a0f-9e8d7c6b5a64', 'doc-0001', 10, '2026-07-14 09:00:00');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (10, 'source', 'wiki/oncall.md', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (10, 'chunk', NULL, 0, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (10, 'chroma:document', 'Quarterly on-call rotation: Dana covers weeks 1 and 3, Minho covers weeks 2 and 4.', NULL, NULL, NULL);
INSERT INTO embedding_fulltext_search (rowid, string_value) VALUES (10, 'Quarterly on-call rotation: Dana covers weeks 1 and 3, Minho covers weeks 2 and 4.');
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (11, '8b7a6950-4e3d-4c2b-1a0f-9e8d7c6b5a64', 'doc-0002', 11, '2026-07-14 09:00:00');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (11, 'source', 'wiki/deploy-ko.md', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (11, 'chunk', NULL, 0, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (11, 'lang', 'ko', NULL, NULL, NULL);
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (11, 'chroma:document', '배포는 화요일과 목요일 오후 2시 이전에만 한다.', NULL, NULL, NULL);
INSERT INTO embedding_fulltext_search (rowid, string_value) VALUES (11, '배포는 화요일과 목요일 오후 2시 이전에만 한다.');
INSERT INTO embeddings (id, segment_id, embedding_id, seq_id, created_at) VALUES (12, '8b7a6950-4e3d-4c2b-1a0f-9e8d7c6b5a64', 'doc-0003', 12, '2026-07-14 09:00:00');
INSERT INTO embedding_metadata (id, key, string_value, int_value, float_value, bool_value) VALUES (12, 'chroma:document', 'The staging database is refreshed from a masked production snapshot every Sunday night.', NULL, NULL, NULL);
INSERT INTO embedding_fulltext_search (rowid, string_value) VALUES (12, 'The staging database is refreshed from a masked production snapshot every Sunday night.');
INSERT INTO max_seq_id (segment_id, seq_id) VALUES ('9c8b7a60-5f4e-4d3c-2b1a-0f9e8d7c6b52', 9);
INSERT INTO max_seq_id (segment_id, seq_id) VALUES ('8b7a6950-4e3d-4c2b-1a0f-9e8d7c6b5a64', 12);
COMMIT;
