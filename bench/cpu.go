package bench

// PerOp returns the sample's time per operation divided as Measure read
// it, in nanoseconds: on a CPU, in a run queue and blocked (which add up to
// NsPerOp), and the rest of the process's CPU (in parallel, not a part of
// NsPerOp); ok is false when the division is not known (see Sample.Why).
func (s Sample) PerOp() (onCPU, runQueue, blocked, background float64, ok bool) {
	n := float64(s.N)
	return float64(s.OnCPU) / n, float64(s.RunQueue) / n, float64(s.Blocked) / n,
		float64(s.BackgroundCPU) / n, s.ThreadKnown
}

// ServerCPUPerOp returns the server's CPU time per operation in
// nanoseconds; ok is false when no probe read it.
func (s Sample) ServerCPUPerOp() (ns float64, ok bool) {
	return float64(s.ServerCPU.Nanoseconds()) / float64(s.N), s.ServerCPUKnown
}
