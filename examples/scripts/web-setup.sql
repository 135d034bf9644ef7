-- The tables of a read-mostly web application (web-*.sql): 1,000 users,
-- 10,000 posts per unit of --scale (1,000 at the default --scale 0.1; at
-- least 100, at most 1,000,000) and three comments per post.
\set nposts greatest(100, int(10000 * :scale))
\set nhigh (:nposts + 999) / 1000

CREATE TABLE users (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, email VARCHAR(80) NOT NULL);
CREATE TABLE posts (id INTEGER PRIMARY KEY, author INTEGER NOT NULL, title VARCHAR(120) NOT NULL,
  body VARCHAR(2000) NOT NULL, ncomments INTEGER NOT NULL);
CREATE TABLE comments (post INTEGER NOT NULL, author INTEGER NOT NULL, body VARCHAR(500) NOT NULL);
CREATE INDEX comments_post ON comments (post);

CREATE TABLE digits (d INTEGER NOT NULL);
INSERT INTO digits (d) VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
CREATE TABLE seq (i INTEGER PRIMARY KEY);
INSERT INTO seq (i) SELECT a.d + 10 * b.d + 100 * c.d FROM digits a, digits b, digits c;

INSERT INTO users (id, name, email) SELECT i + 1, 'a user', 'user@example.com' FROM seq;
INSERT INTO posts (id, author, title, body, ncomments)
  SELECT hi.i * 1000 + lo.i + 1, (hi.i * 1000 + lo.i) % 1000 + 1, 'a post title of some length',
    'the body of a post, a paragraph or two of text that a page shows in full when the post is opened', 3
  FROM seq hi, seq lo
  WHERE hi.i < :nhigh AND hi.i * 1000 + lo.i < :nposts;
INSERT INTO comments (post, author, body)
  SELECT p.id, (p.id + d.d) % 1000 + 1, 'a comment of a sentence or so'
  FROM posts p, digits d WHERE d.d < 3;
