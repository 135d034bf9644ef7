-- Open a post: the post with its author, then its comments. Popular posts
-- are read far more often (Zipfian, as web traffic).
\set nposts greatest(100, int(10000 * :scale))
\set pid random_zipfian(1, :nposts, 1.1)
SELECT p.id, p.title, p.body, p.ncomments, u.name FROM posts p JOIN users u ON u.id = p.author WHERE p.id = :pid;
SELECT author, body FROM comments WHERE post = :pid ORDER BY author, body LIMIT 20;
