-- mem0 history.db as written by mem0 after the v3 pipeline (Apr 2026 ..), schema unchanged since a1c9a6307:
-- mem0ai/mem0 mem0/memory/storage.py (HEAD 8d5b786), rows as mem0/memory/main.py _create_memory/_update_memory/
-- _delete_memory write them: ADD has updated_at = created_at; DELETE keeps created_at and sets updated_at (both
-- datetime.now(timezone.utc).isoformat(), so '+00:00'), is_deleted=1. The messages table is created by the same class.
BEGIN TRANSACTION;
CREATE TABLE history (
                    id           TEXT PRIMARY KEY,
                    memory_id    TEXT,
                    old_memory   TEXT,
                    new_memory   TEXT,
                    event        TEXT,
                    created_at   DATETIME,
                    updated_at   DATETIME,
                    is_deleted   INTEGER,
                    actor_id     TEXT,
                    role         TEXT
                );
CREATE TABLE messages (
                        id TEXT PRIMARY KEY,
                        session_scope TEXT,
                        role TEXT,
                        content TEXT,
                        name TEXT,
                        created_at DATETIME
                    );
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('f3b2a1c0-0001-4e5d-8a9b-1c2d3e4f5a6b', '6b1d9e04-7c3f-4a85-b2e6-0f9a4c8d1e57', NULL, 'Prefers aisle seats on long flights', 'ADD', '2026-05-04T02:11:09.553210+00:00', '2026-05-04T02:11:09.553210+00:00', 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('f3b2a1c0-0002-4e5d-8a9b-1c2d3e4f5a6b', 'd03f7a6c-2e19-4b5d-8c70-9e4b1a6f2d38', NULL, '회사 VPN 비밀번호는 Blue!Heron-2291', 'ADD', '2026-05-04T02:11:10.004871+00:00', '2026-05-04T02:11:10.004871+00:00', 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('f3b2a1c0-0003-4e5d-8a9b-1c2d3e4f5a6b', '8e52c1b9-fa07-4d36-a914-3c6e0d7b5f21', NULL, 'Training for a half marathon in October', 'ADD', '2026-05-20T11:47:31.870046+00:00', '2026-05-20T11:47:31.870046+00:00', 0, 'dana', 'user');
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('f3b2a1c0-0004-4e5d-8a9b-1c2d3e4f5a6b', '6b1d9e04-7c3f-4a85-b2e6-0f9a4c8d1e57', 'Prefers aisle seats on long flights', 'Prefers window seats, even on long flights', 'UPDATE', '2026-05-04T02:11:09.553210+00:00', '2026-06-18T08:30:00.120394+00:00', 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('f3b2a1c0-0005-4e5d-8a9b-1c2d3e4f5a6b', 'd03f7a6c-2e19-4b5d-8c70-9e4b1a6f2d38', '회사 VPN 비밀번호는 Blue!Heron-2291', NULL, 'DELETE', '2026-05-04T02:11:10.004871+00:00', '2026-06-18T08:31:12.448120+00:00', 1, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('f3b2a1c0-0006-4e5d-8a9b-1c2d3e4f5a6b', '1a7f4c3e-9b0d-4e62-85a1-d6c2f8e03b94', NULL, 'Minho''s daughter started first grade', 'ADD', '2026-07-02T23:05:44.219006+00:00', '2026-07-02T23:05:44.219006+00:00', 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('f3b2a1c0-0007-4e5d-8a9b-1c2d3e4f5a6b', '8e52c1b9-fa07-4d36-a914-3c6e0d7b5f21', 'Training for a half marathon in October', NULL, 'DELETE', '2026-05-20T11:47:31.870046+00:00', '2026-08-09T14:02:27.906511+00:00', 1, 'dana', 'user');
INSERT INTO messages (id, session_scope, role, content, name, created_at) VALUES ('2c9e7a41-5b0d-4f83-a6e2-d17f09b3c845', 'user_id=dana', 'user', 'I switched to window seats, the aisle ones get bumped all the time', NULL, '2026-06-18T08:29:58.771204+00:00');
COMMIT;
