package session

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/targets"
)

func TestCheckHelloComparesTheDeclarationWithTheCatalogue(t *testing.T) {
	h := protocol.Hello{Protocol: protocol.ProtocolVersion, Targets: map[string][]bench.Cap{
		"pgx-native": {bench.CapContext, bench.CapCopy, bench.CapPipeline, bench.CapSendBatch},
		"pgx":        {bench.CapContext, bench.CapPool}}}
	pgx, _ := targets.Lookup("pgx")
	if err := CheckHello(h, pgx); err != nil {
		t.Errorf("pgx: %v", err)
	}
	native, _ := targets.Lookup("pgx-native")
	if err := CheckHello(h, native); err != nil {
		t.Errorf("pgx-native: %v", err)
	}
	pq, _ := targets.Lookup("pq")
	if err := CheckHello(h, pq); err == nil || !strings.Contains(err.Error(), "does not link it") {
		t.Errorf("pq, not linked: %v", err)
	}
	h.Targets["pgx"] = []bench.Cap{bench.CapCopy, bench.CapPool}
	if err := CheckHello(h, pgx); err == nil ||
		!strings.Contains(err.Error(), "declares the capabilities copy,pool, the catalogue lists context,pool") {
		t.Errorf("pgx, an extra capability: %v", err)
	}
}
