package bench_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// A run's operations are timed by Measure, as a runner times a workload's:
// each operation checks its own result, and the sample holds the count,
// the time and a latency histogram.
func ExampleMeasure() {
	sum := 0
	run := bench.Run{Op: func(i int) error {
		sum += i
		if sum < i {
			return fmt.Errorf("operation %d: the sum went down", i)
		}
		return nil
	}}
	s, err := bench.Measure(run, 0, 1000, bench.NewLatencyHistogram())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.N, "operations, sum", sum, "timed:", s.Elapsed > 0 && s.Latency.TotalCount() > 0)
	// Output: 1000 operations, sum 499500 timed: true
}

// A workload's whole life, set-up to teardown, runs in one call of
// Exercise, as in the tests of targets and workloads. This one computes
// rather than queries, so that it needs no database.
func ExampleExercise() {
	var steps []string
	ops := 0
	w := bench.Workload{
		Name: "Square", Family: "example", Ops: 100, Unit: "squares",
		Setup: func(bench.Env) error {
			steps = append(steps, "setup")
			return nil
		},
		Begin: func(e bench.Env) (bench.Run, error) {
			steps = append(steps, fmt.Sprintf("begin (%d warm-up, %d timed)", e.Warm, e.N))
			return bench.Run{Op: func(i int) error {
				ops++
				if i*i/max(i, 1) != i {
					return fmt.Errorf("%d squared is wrong", i)
				}
				return nil
			}}, nil
		},
		Teardown: func(bench.Env) error {
			steps = append(steps, "teardown")
			return nil
		},
	}
	err := bench.Exercise(bench.Env{Ctx: context.Background()}, w, 100)
	fmt.Println(strings.Join(steps, ", "))
	fmt.Println(ops, "operations, error:", err)
	// Output:
	// setup, begin (10 warm-up, 100 timed), teardown
	// 110 operations, error: <nil>
}

// A workload writes its SQL once: the dialect names its tables, scoped to
// the cell, and its placeholders.
func ExampleDialect_Table() {
	for _, db := range bench.AllDBs() {
		d := bench.DialectOf(db)
		d.Scope = "c1"
		fmt.Printf("%s: SELECT str FROM %s WHERE number = %s\n", db, d.Table("test"), d.Param(1))
	}
	// Output:
	// sqlite: SELECT str FROM sqlbench_c1_test WHERE number = ?
	// mariadb: SELECT str FROM sqlbench_c1_test WHERE number = ?
	// postgres: SELECT str FROM sqlbench_c1_test WHERE number = $1
}
