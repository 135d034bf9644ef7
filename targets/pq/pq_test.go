package pq_test

import (
	"os"
	"testing"

	"github.com/sqlbench/sqlbench/internal/servers"
	_ "github.com/sqlbench/sqlbench/targets/pq"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

var srv *servers.Server

func TestMain(m *testing.M) { os.Exit(targettest.WithServer(m, servers.KindPostgres, &srv)) }

// TestConformance runs the shared checks on every target of this package
// in the catalogue, on a throwaway server.
func TestConformance(t *testing.T) { targettest.Conformance(t, "pq", srv) }
