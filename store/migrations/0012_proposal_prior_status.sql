-- A curator's rejection is undoable: the proposal keeps the status the
-- rejection moved it from (pending, needs_review, approved), and rolling
-- back the rejection's batch returns it there. '' for every other
-- decision.
ALTER TABLE proposals ADD COLUMN prior_status TEXT NOT NULL DEFAULT '';
