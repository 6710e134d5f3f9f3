-- Facts that used to live only in prose move into columns (issue 28):
-- withdrawn_by is the proposal whose apply made a withdrawn proposal moot
-- (0 for every other one). Rows withdrawn before this migration carry that
-- fact only in their reason ("…; withdrawn: moot after proposal N (KIND)
-- was applied in batch B"): the Go step that runs with this migration
-- (store/migrate_steps.go) reads it out of the text once and gives the
-- reason back as it was before the withdrawal, so that no code parses it
-- again.
ALTER TABLE proposals ADD COLUMN withdrawn_by INTEGER NOT NULL DEFAULT 0;
