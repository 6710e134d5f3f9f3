-- mem0 history.db as written by mem0 0.1.x (May 2025 .. Apr 2026):
-- schema from mem0ai/mem0 mem0/memory/storage.py at a1c9a6307 (SQLiteManager._create_history_table);
-- rows as mem0/memory/main.py at that commit writes them: ADD passes only created_at (updated_at NULL),
-- UPDATE passes created_at (the original) and updated_at, DELETE passes neither (both NULL) and is_deleted=1.
-- Timestamps: datetime.now(pytz.timezone("US/Pacific")).isoformat().  Rows in insertion order.
-- history rows carry no user: owners are in vector_payloads.jsonl (the vector store side).
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
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0001-4b8a-9e21-7c4d6f8a0b12', '3f6c1a9e-52b4-4d0e-9a61-0c8e2b7d4f15', NULL, 'Lives in Portland', 'ADD', '2025-06-03T09:14:22.481203-07:00', NULL, 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0002-4b8a-9e21-7c4d6f8a0b12', 'b81e4c07-9d3a-4a52-8f1e-6a2d9c0b3e74', NULL, 'Allergic to peanuts', 'ADD', '2025-06-03T09:14:23.017455-07:00', NULL, 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0003-4b8a-9e21-7c4d6f8a0b12', 'e2a9d5f1-0b6c-4c8e-b3a7-91f4d2c6a058', NULL, 'My password is Tulip-4471-river', 'ADD', '2025-06-10T21:40:05.660981-07:00', NULL, 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0004-4b8a-9e21-7c4d6f8a0b12', '9a4e2d61-c7b0-4f38-8e15-3b6d0a9c72e4', NULL, 'Works at Kakao as a backend engineer', 'ADD', '2025-07-01T18:02:11.300127-07:00', NULL, 0, 'minho', 'user');
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0005-4b8a-9e21-7c4d6f8a0b12', '0d8b6f3a-4e21-4b97-9c5d-a1e7f3b20c86', NULL, 'Prefers dark roast coffee', 'ADD', '2025-07-01T18:02:11.845660-07:00', NULL, 0, 'minho', 'user');
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0006-4b8a-9e21-7c4d6f8a0b12', 'e2a9d5f1-0b6c-4c8e-b3a7-91f4d2c6a058', 'My password is Tulip-4471-river', NULL, 'DELETE', NULL, NULL, 1, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0007-4b8a-9e21-7c4d6f8a0b12', 'c46f1e92-8a3d-4e0b-b7f6-25d9c0e1a4b3', NULL, '서울 마포구 망원동에 산다', 'ADD', '2025-08-15T07:31:49.122904-07:00', NULL, 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0008-4b8a-9e21-7c4d6f8a0b12', '3f6c1a9e-52b4-4d0e-9a61-0c8e2b7d4f15', 'Lives in Portland', 'Lives in Seattle', 'UPDATE', '2025-06-03T09:14:22.481203-07:00', '2025-09-12T16:05:37.908412-07:00', 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0009-4b8a-9e21-7c4d6f8a0b12', '9a4e2d61-c7b0-4f38-8e15-3b6d0a9c72e4', 'Works at Kakao as a backend engineer', 'Works at Toss as a backend engineer', 'UPDATE', '2025-07-01T18:02:11.300127-07:00', '2025-10-20T10:44:02.551736-07:00', 0, 'minho', 'user');
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0010-4b8a-9e21-7c4d6f8a0b12', '0d8b6f3a-4e21-4b97-9c5d-a1e7f3b20c86', 'Prefers dark roast coffee', NULL, 'DELETE', NULL, NULL, 1, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0011-4b8a-9e21-7c4d6f8a0b12', '5c07b3e8-1f92-4d6a-a0c4-e7b85d2f9136', NULL, 'Has a cat named Miso', 'ADD', '2025-11-02T13:20:58.004318-08:00', NULL, 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0012-4b8a-9e21-7c4d6f8a0b12', '9a4e2d61-c7b0-4f38-8e15-3b6d0a9c72e4', 'Works at Toss as a backend engineer', 'Works at Toss as a staff engineer', 'UPDATE', '2025-07-01T18:02:11.300127-07:00', '2026-01-14T09:12:40.777019-08:00', 0, 'minho', 'user');
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0013-4b8a-9e21-7c4d6f8a0b12', '71e0c5ab-3d94-4a6f-8b21-f0c9e6d4b358', NULL, 'GitHub token for the deploy bot is ghp_Q7mZ2xK9pL4vT8nR1cW6yB3dF5hJ0sA2eU7i', 'ADD', '2026-02-03T22:08:16.219874-08:00', NULL, 0, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0014-4b8a-9e21-7c4d6f8a0b12', '71e0c5ab-3d94-4a6f-8b21-f0c9e6d4b358', 'GitHub token for the deploy bot is ghp_Q7mZ2xK9pL4vT8nR1cW6yB3dF5hJ0sA2eU7i', NULL, 'DELETE', NULL, NULL, 1, NULL, NULL);
INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role) VALUES ('a0f1c3e5-0015-4b8a-9e21-7c4d6f8a0b12', 'c46f1e92-8a3d-4e0b-b7f6-25d9c0e1a4b3', '서울 마포구 망원동에 산다', '부산 해운대구로 이사했다', 'UPDATE', '2025-08-15T07:31:49.122904-07:00', '2026-03-28T19:55:03.640282-07:00', 0, NULL, NULL);
COMMIT;
