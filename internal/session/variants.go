package session

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench"
	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/internal/variant"
	"github.com/sqlbench/sqlbench/targets"
)

// A variant is a catalogue target at another version of its driver's
// module, named in --targets as name@version (a release the module proxy
// serves: mattn@v1.14.22) or name@path (a local checkout, built through a
// replace: mattn@./go-sqlite3). Each variant is a target of its own, with
// a runner of its own built against that version, in the same interleaved
// session as every other target; its results are labelled
// driver=<driver>@<version> so that benchstat and --baseline compare it
// with the catalogue's target directly.

// versionRE is the form of a Go release a variant may name: a semantic
// version, with a pre-release or pseudo-version suffix; mavenVersionRE a
// JDBC driver's Maven version (42.7.3, 3.47.2.0, 9.1.0-rc1).
var (
	versionRE      = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$`)
	mavenVersionRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*([-.][0-9A-Za-z.-]+)?$`)
)

// splitVariants takes the variants out of a --targets list: the elements
// with an '@' or a spin suffix (+spin=). The rest is returned as it was.
func splitVariants(list []string) (plain, variants []string) {
	for _, el := range list {
		if variant.Parse(el).IsVariant() {
			variants = append(variants, strings.TrimSpace(el))
		} else {
			plain = append(plain, el)
		}
	}
	return plain, variants
}

// variantSpecs returns the variant targets the elements name, for the
// databases of the session. A malformed element, an unknown or JDBC target,
// a target of another database or a checkout directory that does not
// exist is an InputError naming it.
func variantSpecs(els []string, dbs []bench.DB, dir string) ([]targets.Spec, error) {
	var out []targets.Spec
	for _, el := range els {
		if strings.HasPrefix(el, "-") {
			return nil, inputf("--targets: %s: a variant cannot be excluded; leave it out", el)
		}
		n := variant.Parse(el)
		var v targets.Spec
		var err error
		if n.HasVersion {
			v, err = versionSpec(el, n.Base, n.Version, dbs, dir)
		} else {
			v, err = lookupBase(el, n.Base, dbs)
		}
		if err != nil {
			return nil, err
		}
		if n.HasSpin {
			if v, err = spinSpec(el, v, n.Spin); err != nil {
				return nil, err
			}
		}
		out = appendVariant(out, v)
	}
	return out, nil
}

// lookupBase returns the catalogue target name of element el, which must
// speak one of dbs.
func lookupBase(el, name string, dbs []bench.DB) (targets.Spec, error) {
	base, ok := targets.Lookup(name)
	if !ok {
		return base, inputf("--targets: %s: unknown target %q%s", el, name, pick.DidYouMean(name, targets.Names()))
	}
	if !base.JVM && !slices.Contains(dbs, base.DB) {
		return base, inputf("--targets: %s is a target of %s, not of --db %s", el, base.DB, joinDBs(dbs))
	}
	return base, nil
}

// maxSpin bounds a spin variant's delay per operation: a slowdown to
// measure, not a stall (a batch call spins its operations' count times it).
const maxSpin = time.Second

// spinSpec returns t slowed down by the spin text names (a Go duration,
// 0 < d <= maxSpin). A JDBC target has no Go runner to spin in.
func spinSpec(el string, t targets.Spec, text string) (targets.Spec, error) {
	if t.JVM {
		return t, inputf("--targets: %s: a spin variant needs a Go runner; %s runs on the JDBC runner", el, t.Name)
	}
	d, err := time.ParseDuration(text)
	switch {
	case err != nil:
		return t, inputf("--targets: %s: %q is not a duration (50us, 1.5ms)", el, text)
	case d <= 0 || d > maxSpin:
		return t, inputf("--targets: %s: the spin must be above 0 and at most %v, got %v", el, maxSpin, d)
	}
	return targets.SpinOf(t, d, spinLabel(d)), nil
}

// spinLabel writes d in a target's name: in the largest of ms, us and ns
// that holds it whole, ASCII only ("50us", "1500ns", "2ms"), so that one
// delay has one name however it was written.
func spinLabel(d time.Duration) string {
	switch {
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	case d%time.Microsecond == 0:
		return strconv.FormatInt(int64(d/time.Microsecond), 10) + "us"
	}
	return strconv.FormatInt(int64(d), 10) + "ns"
}

// versionSpec returns the variant of catalogue target name at version (a
// release, or a local checkout's directory relative to dir), el being the
// --targets element that names it.
func versionSpec(el, name, version string, dbs []bench.DB, dir string) (targets.Spec, error) {
	base, ok := targets.Lookup(name)
	if !ok {
		return base, inputf("--targets: %s: unknown target %q%s", el, name, pick.DidYouMean(name, targets.Names()))
	}
	switch {
	case base.JVM && base.Module != "":
		if !mavenVersionRE.MatchString(version) {
			return base, inputf("--targets: %s: %q is not a Maven version of %s (42.7.3); "+
				"a JDBC driver cannot be built from a checkout", el, version, base.Module)
		}
		return targets.VariantOf(base, version, version), nil
	case base.Module == "" || base.Package == "" || strings.HasPrefix(base.Package, "../"):
		return base, inputf("--targets: %s: %s is not a driver module of its own", el, name)
	case !slices.Contains(dbs, base.DB):
		return base, inputf("--targets: %s is a target of %s, not of --db %s", el, base.DB, joinDBs(dbs))
	}
	var label string
	switch {
	case version == "":
		return base, inputf("--targets: %s: name a version after the @ (v1.2.3) or a local checkout (./dir)", el)
	case strings.HasPrefix(version, ".") || strings.HasPrefix(version, "/") || strings.HasPrefix(version, "~"):
		if rest, ok := strings.CutPrefix(version, "~"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return base, inputf("--targets: %s: %v", el, err)
			}
			version = home + rest
		}
		abs := version
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, abs)
		}
		abs = filepath.Clean(abs)
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return base, inputf("--targets: %s: %s is not a directory", el, abs)
		}
		version, label = abs, "local-"+labelSafe(filepath.Base(abs))
	case versionRE.MatchString(version):
		label = version
	default:
		return base, inputf("--targets: %s: %q is neither a version (v1.2.3) nor a directory (./dir)", el, version)
	}
	return targets.VariantOf(base, version, label), nil
}

// appendVariant appends v unless a variant of its name is there already.
func appendVariant(vs []targets.Spec, v targets.Spec) []targets.Spec {
	if slices.ContainsFunc(vs, func(s targets.Spec) bool { return s.Name == v.Name }) {
		return vs
	}
	return append(vs, v)
}

// labelSafe keeps the characters a result name's key value may hold.
func labelSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' || r == '=' || r == '\t' {
			return '-'
		}
		return r
	}, s)
}

// variantOf returns the launcher's description of a variant target.
func variantOf(t targets.Spec) launcher.Variant {
	if filepath.IsAbs(t.Version) {
		return launcher.Variant{Module: t.Module, Dir: t.Version}
	}
	return launcher.Variant{Module: t.Module, Version: t.Version}
}

// resolveVariants checks every variant of the plan before anything is
// created: a release must be served by the module proxy, a checkout must
// declare the driver's module, and the modules with names for a variant
// (Config.VariantWith) must be served too. What does not resolve is an InputError, one
// line naming the target, the version and what the proxy said.
func resolveVariants(ctx context.Context, p *Plan, with map[string][]string) (map[string]launcher.Resolved, error) {
	out := map[string]launcher.Resolved{}
	gomod, err := fs.ReadFile(sqlbench.RunnerSource(), "go.mod")
	if err != nil {
		return nil, fmt.Errorf("the embedded go.mod: %w", err)
	}
	b, jb := &launcher.Builder{GoMod: gomod}, &launcher.JarBuilder{}
	for _, t := range p.Runnable {
		if t.Version == "" {
			continue // a catalogue target, or a spin variant of one: no rebuild
		}
		if t.JVM {
			if err := jb.ResolveVersion(ctx, t.Module, t.Version); err != nil {
				return nil, inputf("--targets: %s: %v", t.Name, err)
			}
			v := launcher.Variant{Module: t.Module, Version: t.Version}
			out[t.Name] = launcher.Resolved{Variant: v, Maven: true}
			continue
		}
		r, err := b.Resolve(ctx, variantOf(t))
		if err != nil {
			return nil, inputf("--targets: %s: %v", t.Name, err)
		}
		if w := with[t.Name]; len(w) > 0 {
			if r, err = b.With(ctx, r, w); err != nil {
				return nil, inputf("--targets: %s: %v", t.Name, err)
			}
		}
		out[t.Name] = r
	}
	return out, nil
}

// variantLines are the results file's configuration lines of the
// variants: per variant target, the exact module version and sum, or the
// checkout's directory, content hash and revision.
func variantLines(resolved map[string]launcher.Resolved) [][2]string {
	names := make([]string, 0, len(resolved))
	for n := range resolved {
		names = append(names, n)
	}
	slices.Sort(names)
	var out [][2]string
	for _, n := range names {
		out = append(out, [2]string{n + "-variant", resolved[n].Record()})
	}
	return out
}
