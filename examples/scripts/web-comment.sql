-- Post a comment: one write in a transaction.
\set nposts greatest(100, int(10000 * :scale))
\set pid random_zipfian(1, :nposts, 1.1)
\set uid random(1, 1000)
BEGIN;
INSERT INTO comments (post, author, body) VALUES (:pid, :uid, 'a new comment');
UPDATE posts SET ncomments = ncomments + 1 WHERE id = :pid;
COMMIT;
