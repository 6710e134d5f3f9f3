-- The review queue: captures the judge held as needs_review (its answer did
-- not validate). A held message is not dropped: it waits here, with the
-- validation reason, until the judge is asked again (`memtrace review
-- retry`) or a curator stores or skips it by hand. status: held, then
-- stored | reinforced | dropped (the judge, on a retry) | skipped (curator).
CREATE TABLE review_queue (
	id         INTEGER PRIMARY KEY,
	message_id TEXT    NOT NULL UNIQUE,
	session    TEXT    NOT NULL DEFAULT '',
	role       TEXT    NOT NULL DEFAULT '',
	project    TEXT    NOT NULL DEFAULT '',
	text       TEXT    NOT NULL,
	at         TEXT    NOT NULL,
	reason     TEXT    NOT NULL DEFAULT '', -- why the answer was held
	judge      TEXT    NOT NULL DEFAULT '', -- "judge:<model>" that held it
	attempts   INTEGER NOT NULL DEFAULT 1,
	status     TEXT    NOT NULL DEFAULT 'held',
	memory_id  INTEGER REFERENCES memories (id),
	decided_by TEXT    NOT NULL DEFAULT '',
	decided_at TEXT    NOT NULL DEFAULT '',
	batch      TEXT    NOT NULL DEFAULT '',
	note       TEXT    NOT NULL DEFAULT '', -- the decision's reason (curator's skip reason, judge's drop reason)
	created_at TEXT    NOT NULL,
	updated_at TEXT    NOT NULL
);
CREATE INDEX review_queue_status ON review_queue (status, id);
CREATE INDEX review_queue_batch ON review_queue (batch);

-- Captures held before this table existed were logged as dropped by the
-- judge with reason needs_review and nothing else: queue them, so they can
-- still become memories. Their validation reason was not kept.
INSERT INTO review_queue (message_id, session, role, project, text, at, reason, judge, status, created_at, updated_at)
SELECT c.message_id, c.session, c.role, c.project, c.text, c.at,
	'held before the review queue existed; the validation reason was not kept', '', 'held', c.created_at, c.created_at
FROM captures c
WHERE c.dropped_by = 'judge' AND c.reason = 'needs_review' AND c.message_id <> ''
	AND c.id = (SELECT MAX(id) FROM captures c2 WHERE c2.message_id = c.message_id)
	AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.key = c.message_id);
