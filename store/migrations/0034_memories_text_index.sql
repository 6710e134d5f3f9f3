-- A covering index of every memory's id, write sequence and text (issue
-- 33): a load that takes the other columns from the column file
-- (PATH-columns) reads id, seq and content from this index, about 8 MB at
-- 100k memories, instead of scanning the table, whose rows also hold the
-- 1 KB vector blobs the vector file already serves (240 MB of pages at
-- 100k). secure_delete and VACUUM at an erasure cover its pages as they do
-- the table's.
CREATE INDEX memories_text ON memories (id, seq, content);
