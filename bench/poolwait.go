package bench

import "time"

// PoolWaiter is implemented by a pooled Conn (CapPool) whose pool counts
// the waits for a connection, as its driver reports them: database/sql's
// DB.Stats (WaitCount, WaitDuration: waits for a connection with every
// allowed one busy) and pgxpool's Stat (EmptyAcquireCount,
// EmptyAcquireWaitTime: acquires that found no idle connection and waited
// for one to be released or opened). The counts are cumulative since the
// pool opened.
type PoolWaiter interface {
	PoolWaits() (count int64, wait time.Duration)
}
