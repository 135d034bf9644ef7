package benchfile_test

import (
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// A results file is Go benchmark format: benchstat reads it as it is, and
// Read gives each result its configuration, the session's facts (written
// as comment lines, so that benchstat does not tell sessions apart by
// them) included, with the target= key taken out of its name
// (benchfmt reads ns/op as seconds).
func ExampleRead() {
	const file = `# session-id: k3x9qa
goos: linux
cpu: Example CPU
BenchmarkSimpleQuery/db=sqlite/target=mattn/driver=mattn/api=sql 	1000	2500 ns/op	400000 ops/s
`
	set, err := benchfile.Read(strings.NewReader(file), "results.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range set.Results {
		fmt.Println(r.Name, "on", r.GetConfig("cpu"), "in session", r.GetConfig("session-id"))
		for _, v := range r.Values {
			fmt.Println(v.Value, v.Unit)
		}
	}
	// Output:
	// SimpleQuery/db=sqlite/driver=mattn/api=sql on Example CPU in session k3x9qa
	// 2.5e-06 sec/op
	// 400000 ops/s
}

// A cell's name in a results file carries the target as the user named
// it, after the database.
func ExampleWithTarget() {
	name := benchfile.WithTarget("SimpleQuery/db=sqlite/driver=mattn/api=sql", "mattn")
	fmt.Println(name)
	fmt.Println(benchfile.WithoutTarget(name))
	// Output:
	// SimpleQuery/db=sqlite/target=mattn/driver=mattn/api=sql
	// SimpleQuery/db=sqlite/driver=mattn/api=sql
}
