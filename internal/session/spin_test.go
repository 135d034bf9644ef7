package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// TestSpinVariantsAreNamedAndPlaced: a spin suffix makes a target of its
// own, named with its delay in one spelling however it was written, run
// by its base's runner under its base's opener (a version variant's: that
// version's runner), and refused with one line naming the element when
// its target is a JDBC one or its delay is not a positive duration of at
// most a second.
func TestSpinVariantsAreNamedAndPlaced(t *testing.T) {
	dbs := []bench.DB{bench.SQLite, bench.Postgres}
	got, err := variantSpecs([]string{"mattn+spin=50us", "modernc+spin=2000ns", "mattn@v1.14.22+spin=1.5us",
		"mattn+spin=50µs"}, dbs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, driver, group, opener, version string
		spin                                 time.Duration
	}{
		{"mattn+spin=50us", "mattn+spin=50us", "mattn", "mattn", "", 50 * time.Microsecond},
		{"modernc+spin=2us", "modernc+spin=2us", "purego", "modernc", "", 2 * time.Microsecond},
		{"mattn@v1.14.22+spin=1500ns", "mattn@v1.14.22+spin=1500ns", "mattn@v1.14.22", "mattn", "v1.14.22",
			1500 * time.Nanosecond},
	}
	if len(got) != len(want) {
		t.Fatalf("%d targets, want %d (50µs and 50us are one): %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.Driver != w.driver || g.Group != w.group || g.Opener() != w.opener ||
			g.Version != w.version || g.Spin != w.spin {
			t.Errorf("target %d: name %q driver %q group %q opener %q version %q spin %v; want %+v",
				i, g.Name, g.Driver, g.Group, g.Opener(), g.Version, g.Spin, w)
		}
	}
	if got, want := got[0].Key(), "db=sqlite/driver=mattn+spin=50us/api=sql"; got != want {
		t.Errorf("result name keys %q, want %q", got, want)
	}
	for _, c := range []struct{ el, want string }{
		{"jdbc-sqlite+spin=2us", "a spin variant needs a Go runner"},
		{"jdbc-postgres@42.7.3+spin=2us", "a spin variant needs a Go runner"},
		{"mattn+spin=fast", `"fast" is not a duration`},
		{"mattn+spin=", `"" is not a duration`},
		{"mattn+spin=0s", "the spin must be above 0"},
		{"mattn+spin=-3us", "the spin must be above 0"},
		{"mattn+spin=2s", "at most 1s"},
		{"nosuch+spin=2us", `unknown target "nosuch"`},
		{"-mattn+spin=2us", "cannot be excluded"},
	} {
		_, err := variantSpecs([]string{c.el}, dbs, t.TempDir())
		var ie InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.el) ||
			strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line, an input error naming it and saying %q", c.el, err, c.want)
		}
	}
}

// TestSplitVariantsTakesSpinSuffixes: an element with a spin suffix is a
// variant even without an '@'.
func TestSplitVariantsTakesSpinSuffixes(t *testing.T) {
	plain, vs := splitVariants([]string{"mattn", "mattn+spin=2us", "pgx*", "mattn@v1.14.22"})
	if strings.Join(plain, ",") != "mattn,pgx*" || strings.Join(vs, ",") != "mattn+spin=2us,mattn@v1.14.22" {
		t.Errorf("plain %q, variants %q", plain, vs)
	}
}
