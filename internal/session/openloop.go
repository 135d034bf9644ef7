package session

import (
	"fmt"
	"strconv"
)

// openLoopConfig returns the results file's lines of an open-loop session
// (run --rate): the rate, and the latency limit and progress interval when
// set. They are settings: benchstat sets two sessions at different rates
// in tables of their own.
func openLoopConfig(cfg *Config) [][2]string {
	if cfg.Rate <= 0 {
		return nil
	}
	out := [][2]string{{"rate", strconv.FormatFloat(cfg.Rate, 'g', -1, 64) + "/s (open loop: Poisson arrivals; " +
		"latency from each operation's scheduled start; lag-ns/op, late, skipped)"}}
	if cfg.LatencyLimit > 0 {
		out = append(out, [2]string{"latency-limit", fmt.Sprintf("%v (an operation already this late when its "+
			"client reaches it is skipped; one that takes longer from its schedule is late)", cfg.LatencyLimit)})
	}
	if cfg.Progress > 0 {
		out = append(out, [2]string{"progress", fmt.Sprintf("%v (each run's time series: the # series-K "+
			"line before its result)", cfg.Progress)})
	}
	return out
}
