-- Lessons as rows (issue 33): one row per sighting of a lesson, unique by
-- (lesson, sighting key) — the message id, or for a sighting without one
-- its time, session and text hash — so a sighting is one insert, found by
-- its key, instead of the lesson's occurrences JSON array decoded and
-- rewritten whole. The Go step of this migration moves every
-- corrections.occurrences array into rows and leaves '[]' behind (the
-- column stays for older readers and is no longer written).
CREATE TABLE lesson_sightings (
	id            INTEGER PRIMARY KEY,
	correction_id INTEGER NOT NULL REFERENCES corrections (id),
	sighting_key  TEXT    NOT NULL,
	message_id    TEXT    NOT NULL DEFAULT '',
	session       TEXT    NOT NULL DEFAULT '',
	text          TEXT    NOT NULL DEFAULT '',
	at            TEXT    NOT NULL,
	UNIQUE (correction_id, sighting_key)
);
CREATE INDEX lesson_sightings_session ON lesson_sightings (correction_id, session);
