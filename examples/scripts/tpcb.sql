-- A TPC-B-like transaction, as pgbench's built-in "tpcb-like" script: one
-- account, teller and branch updated by a random amount, the account's new
-- balance read back, the change logged. Tables: tpcb-setup.sql.
\set nbranches greatest(1, int(:scale))
\set naccounts int(100000 * :scale)
\set aid random(1, :naccounts)
\set bid random(1, :nbranches)
\set tid random(1, 10 * :nbranches)
\set delta random(-5000, 5000)
BEGIN;
UPDATE accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM accounts WHERE aid = :aid;
UPDATE tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
COMMIT;
