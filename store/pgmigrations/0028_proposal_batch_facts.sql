-- PostgreSQL twin of migrations/0028_proposal_batch_facts.sql; the same Go
-- step moves the facts of older rows out of their reason.
ALTER TABLE proposals ADD COLUMN withdrawn_by BIGINT NOT NULL DEFAULT 0;
ALTER TABLE proposals ADD COLUMN reject_note TEXT NOT NULL DEFAULT '';
