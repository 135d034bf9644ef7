package gomysql_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/servertest"
	_ "github.com/sqlbench/sqlbench/targets/gomysql"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(servertest.Main(m, servers.KindMariaDB, &srv)) }

// TestConformance runs the shared checks on every target of this package
// in the catalogue, on a throwaway server.
func TestConformance(t *testing.T) { servertest.Conformance(t, "gomysql", srv) }
