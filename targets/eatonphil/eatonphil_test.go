package eatonphil_test

import (
	"testing"

	_ "github.com/sqlbench/sqlbench/targets/eatonphil"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestConformance runs the shared checks on every target of this package
// in the catalogue.
func TestConformance(t *testing.T) { targettest.Conformance(t, targettest.Package("eatonphil")) }
