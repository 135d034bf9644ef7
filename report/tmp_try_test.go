package report

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/benchfile"
)

func TestTryReal(t *testing.T) {
	set, err := benchfile.ReadFile("/tmp/real.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := New(set.Results, nil, func(n string) (WorkloadInfo, bool) { return WorkloadInfo{"classic", "queries"}, true })
	Markdown(os.Stdout, r)
}
