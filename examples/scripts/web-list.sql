-- A page of the newest posts, mostly the first pages.
\set page random_exponential(0, 9, 3)
\set offset :page * 20
SELECT id, title, ncomments FROM posts ORDER BY id DESC LIMIT 20 OFFSET :offset;
