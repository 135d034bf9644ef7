package bench

import "fmt"

// Exercise sets up w in e, runs n operations after a short untimed
// warm-up through the same Warm and Measure the runners use, checks them,
// and tears the workload down: a whole cell's life in one call, for the
// tests of targets and workloads. A workload that asks for a pooled cell
// connection (Workload.Pool) gets one from e.Open, as a runner's cell does,
// closed when the call returns.
func Exercise(e Env, w Workload, n int) error {
	if w.Pool > 1 && e.Pool < w.Pool && e.Open != nil {
		c, err := e.Open(e.Ctx, w.Pool)
		if err != nil {
			return fmt.Errorf("open a pool of %d: %w", w.Pool, err)
		}
		defer c.Close()
		e.Conn, e.Pool = c, w.Pool
	}
	if err := w.Setup(e); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	const warm = 10
	e.Warm, e.N = warm, n
	r, err := w.Begin(e)
	if err != nil {
		w.Teardown(e)
		return fmt.Errorf("begin: %w", err)
	}
	if err = Warm(r, warm); err == nil {
		_, err = Measure(r, warm, n, NewLatencyHistogram())
	}
	if r.End != nil {
		if eerr := r.End(); err == nil && eerr != nil {
			err = fmt.Errorf("end: %w", eerr)
		}
	}
	if terr := w.Teardown(e); err == nil && terr != nil {
		err = fmt.Errorf("teardown: %w", terr)
	}
	return err
}
