package session

import (
	"testing"

	"github.com/sqlbench/sqlbench/internal/report"
)

// TestWorkloadInfoPutsKeyedWorkloadsInTheirFamily: results of workloads with keys
// (BulkInsert/shape=.../path=...) are reported in their family with their
// unit, not as "other".
func TestWorkloadInfoPutsKeyedWorkloadsInTheirFamily(t *testing.T) {
	for name, want := range map[string]report.WorkloadInfo{
		"BulkInsert":   {Family: "bulk", Unit: "rows", Spread: true},
		"SingleInsert": {Family: "insert", Unit: "rows"},
		"SimpleQuery":  {Family: "classic", Unit: "queries"},
		"SuiteMany":    {Family: "suite", Unit: "queries"},
	} {
		got, ok := WorkloadInfo(name)
		if want.Rank = got.Rank; !ok || got != want {
			t.Errorf("WorkloadInfo(%q) = %+v, %v; want %+v", name, got, ok, want)
		}
	}
	classic, _ := WorkloadInfo("SimpleQuery")
	suite, _ := WorkloadInfo("SuiteMany")
	if classic.Rank >= suite.Rank {
		t.Errorf("rank of SimpleQuery %d, of SuiteMany %d: want the classic suite first, as in the catalogue",
			classic.Rank, suite.Rank)
	}
	if _, ok := WorkloadInfo("NoSuchWorkload"); ok {
		t.Error("an unknown workload was found")
	}
}
