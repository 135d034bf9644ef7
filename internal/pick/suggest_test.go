package pick

import "testing"

func TestSuggest(t *testing.T) {
	names := []string{"mattn", "modernc", "mysql", "mysql-interp", "pgx", "pgx-native", "postgres", "sqlite"}
	for _, c := range []struct{ typed, want string }{
		{"matn", "mattn"},
		{"MATTN2", "mattn"},
		{"moderncc", "modernc"},
		{"pgx-nativ", "pgx-native"},
		{"postgre", "postgres"},
		{"sqlte", "sqlite"},
		{"mysql-int", "mysql-interp"}, // a prefix
		{"oracle", ""},
		{"pg", "pgx"},
		{"zzz", ""},
		{"", ""},
	} {
		if got := Suggest(c.typed, names); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.typed, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean("matn", []string{"mattn", "pq"}); got != ` (did you mean "mattn"?)` {
		t.Errorf("DidYouMean(matn) = %q", got)
	}
	if got := DidYouMean("oracle", []string{"mattn", "pq"}); got != " (valid: mattn, pq)" {
		t.Errorf("DidYouMean(oracle) = %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"matn", "mattn", 1}, {"flaw", "lawn", 2}} {
		if got := distance(c.a, c.b); got != c.d {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
