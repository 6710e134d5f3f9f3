-- PostgreSQL twin of migrations/0034_memories_text_index.sql. PostgreSQL
-- has no column file (a load there reads every column), so the covering
-- index would only cost its writes, and a B-tree entry is limited to about
-- 2.7 KB while a memory's text may be longer: no index here.
SELECT 1;
