package cli

import (
	"bytes"
	"testing"

	"github.com/sqlbench/sqlbench/internal/pin"
)

// TestPinDefaultsToNone: a run places server and runner where the
// scheduler puts them, as every published study ran, unless --pin says
// otherwise; same and split stay options.
func TestPinDefaultsToNone(t *testing.T) {
	var out, errb bytes.Buffer
	for _, c := range []struct {
		args []string
		want pin.Mode
	}{{nil, pin.None}, {[]string{"--pin", "same"}, pin.Same}, {[]string{"--pin", "split"}, pin.Split}} {
		cfg, err := parseRun(c.args, fakeEnv(&out, &errb))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Pin != c.want {
			t.Errorf("run %v: pin %q, want %q", c.args, cfg.Pin, c.want)
		}
	}
	if got := pin.Local(pin.None).String(); got != "none" {
		t.Errorf("the pin: line of the default placement reads %q, want none", got)
	}
}
