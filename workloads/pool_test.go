package workloads

import (
	"slices"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
)

// TestPoolValues pins the rows and ids the pool family reads: the JDBC
// twin (PoolWorkloadsTest.theValuesAreGos) computes the same.
func TestPoolValues(t *testing.T) {
	if got := poolID(1); got != 919 {
		t.Errorf("poolID(1) = %d, want 919", got)
	}
	if got := poolID(poolRows); got != 0 {
		t.Errorf("poolID(%d) = %d, want 0", poolRows, got)
	}
	if got := poolName(7); got != "pool-row-7" {
		t.Errorf("poolName(7) = %q", got)
	}
	d := bench.DialectOf(bench.Postgres)
	d.Scope = "t"
	if got, want := poolQuery(d), "SELECT id, name FROM sqlbench_t_pool WHERE id = $1"; got != want {
		t.Errorf("query %q, want %q", got, want)
	}
	seen := map[int64]bool{}
	for i := range poolRows {
		seen[poolID(i)] = true
	}
	if len(seen) != poolRows {
		t.Errorf("%d operations read %d distinct rows, want every one of %d", poolRows, len(seen), poolRows)
	}
}

// TestPoolTargetsRunThePoolFamilyOnly holds the catalogue's pool-only
// targets (pgxpool, HikariCP) to the family's workloads.
func TestPoolTargetsRunThePoolFamilyOnly(t *testing.T) {
	for _, name := range []string{"pgxpool", "jdbc-pg-hikari", "jdbc-mariadb-hikari"} {
		s, ok := targets.Lookup(name)
		if !ok {
			t.Fatalf("%s is not in the catalogue", name)
		}
		if !slices.Equal(s.Only, PoolWorkloadIDs()) {
			t.Errorf("%s runs %v, want the pool family %v", name, s.Only, PoolWorkloadIDs())
		}
	}
}
