-- PostgreSQL twin of migrations/0007_capture_branch.sql.
ALTER TABLE captures ADD COLUMN branch TEXT NOT NULL DEFAULT '';
