-- Recall traces kept for later inspection (an agent recalls through MCP, a
-- person opens the trace in the TUI afterwards), and small settings.
CREATE TABLE traces (
	id         INTEGER PRIMARY KEY,
	query      TEXT NOT NULL,
	session    TEXT NOT NULL DEFAULT '',
	source     TEXT NOT NULL DEFAULT '',
	at         TEXT NOT NULL,
	trace      TEXT NOT NULL,
	created_at TEXT NOT NULL
);

CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
