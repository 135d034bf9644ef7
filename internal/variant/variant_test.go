package variant

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Name
	}{
		{"mattn", Name{Base: "mattn"}},
		{"", Name{}},
		{"mattn@v1.14.22", Name{Base: "mattn", Version: "v1.14.22", HasVersion: true}},
		{"zombiezen@local-base", Name{Base: "zombiezen", Version: "local-base", HasVersion: true}},
		{"mattn@./go-sqlite3", Name{Base: "mattn", Version: "./go-sqlite3", HasVersion: true}},
		{"mattn@", Name{Base: "mattn", HasVersion: true}},
		{"mattn+spin=50us", Name{Base: "mattn", Spin: "50us", HasSpin: true}},
		{"mattn+spin=", Name{Base: "mattn", HasSpin: true}},
		{"pgx@v5.5.5+spin=1ms", Name{Base: "pgx", Version: "v5.5.5", Spin: "1ms", HasVersion: true, HasSpin: true}},
		// Build metadata is part of the version, not a spin.
		{"pgx@v1.2.3+incompatible", Name{Base: "pgx", Version: "v1.2.3+incompatible", HasVersion: true}},
		{"pgx@v1.2.3+incompatible+spin=2us",
			Name{Base: "pgx", Version: "v1.2.3+incompatible", Spin: "2us", HasVersion: true, HasSpin: true}},
		// The last spin suffix counts; the first '@' ends the name.
		{"a+spin=1us+spin=2us", Name{Base: "a+spin=1us", Spin: "2us", HasSpin: true}},
		{"a@b@c", Name{Base: "a", Version: "b@c", HasVersion: true}},
		{"modernc/sql", Name{Base: "modernc/sql"}},
	} {
		got := Parse(tc.in)
		if got != tc.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		if got.String() != tc.in {
			t.Errorf("Parse(%q).String() = %q", tc.in, got.String())
		}
		if got.IsVariant() != (got.HasVersion || got.HasSpin) || got.IsVariant() != (got.Suffix() != "") {
			t.Errorf("Parse(%q): IsVariant %v, Suffix %q", tc.in, got.IsVariant(), got.Suffix())
		}
	}
}
