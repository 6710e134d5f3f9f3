-- PostgreSQL twin of migrations/0012_proposal_prior_status.sql.
ALTER TABLE proposals ADD COLUMN prior_status TEXT NOT NULL DEFAULT '';
