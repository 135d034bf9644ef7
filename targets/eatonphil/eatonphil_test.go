package eatonphil_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/eatonphil"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

func TestWorkloads(t *testing.T) { targettest.Workloads(t, "eatonphil", targettest.SQLite) }

func TestDetectsWrongData(t *testing.T) {
	targettest.DetectsWrongData(t, "eatonphil", targettest.SQLite)
}

func TestDetectsWrongBulkData(t *testing.T) {
	targettest.DetectsWrongBulkData(t, "eatonphil", targettest.SQLite)
}

func TestSuiteDetectsWrongData(t *testing.T) {
	targettest.SuiteDetectsWrongData(t, "eatonphil", targettest.SQLite)
}

func TestSuiteEnforcesForeignKeys(t *testing.T) {
	targettest.SuiteEnforcesForeignKeys(t, "eatonphil", targettest.SQLite)
}
