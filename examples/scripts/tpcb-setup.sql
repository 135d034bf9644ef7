-- The tables of a TPC-B-like transaction (tpcb.sql), in the manner of
-- pgbench's own: one branch per unit of --scale (at least one), ten tellers
-- per branch and 100,000 accounts per unit of --scale (10,000 at the
-- default --scale 0.1; up to --scale 10). Runs unchanged on SQLite, MariaDB
-- and PostgreSQL, in the cell's own file, database or schema.
\set nbranches greatest(1, int(:scale))
\set ntellers 10 * :nbranches
\set naccounts int(100000 * :scale)
\set nhigh (:naccounts + 999) / 1000

CREATE TABLE branches (bid INTEGER PRIMARY KEY, bbalance INTEGER NOT NULL, filler CHAR(88));
CREATE TABLE tellers (tid INTEGER PRIMARY KEY, bid INTEGER NOT NULL, tbalance INTEGER NOT NULL, filler CHAR(84));
CREATE TABLE accounts (aid INTEGER PRIMARY KEY, bid INTEGER NOT NULL, abalance INTEGER NOT NULL, filler CHAR(84));
CREATE TABLE history (tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TIMESTAMP, filler CHAR(22));

-- 0..999, from which the rows are numbered (no recursive query: MariaDB
-- stops one after 1,000 rows by default).
CREATE TABLE digits (d INTEGER NOT NULL);
INSERT INTO digits (d) VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
CREATE TABLE seq (i INTEGER PRIMARY KEY);
INSERT INTO seq (i) SELECT a.d + 10 * b.d + 100 * c.d FROM digits a, digits b, digits c;

INSERT INTO branches (bid, bbalance, filler) SELECT i + 1, 0, '' FROM seq WHERE i < :nbranches;
INSERT INTO tellers (tid, bid, tbalance, filler)
  SELECT i + 1, i / 10 + 1, 0, '' FROM seq WHERE i < :ntellers;
INSERT INTO accounts (aid, bid, abalance, filler)
  SELECT hi.i * 1000 + lo.i + 1, (hi.i * 1000 + lo.i) % :nbranches + 1, 0, ''
  FROM seq hi, seq lo
  WHERE hi.i < :nhigh AND hi.i * 1000 + lo.i < :naccounts;
