-- The version-control branch a captured message was written on (Claude
-- Code transcripts record it as gitBranch); '' when unknown.
ALTER TABLE captures ADD COLUMN branch TEXT NOT NULL DEFAULT '';
