package session

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
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
// with an '@'. The rest is returned as it was.
func splitVariants(list []string) (plain, variants []string) {
	for _, el := range list {
		if strings.Contains(el, "@") {
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
		name, version, _ := strings.Cut(el, "@")
		if strings.HasPrefix(name, "-") {
			return nil, inputf("--targets: %s: a variant cannot be excluded; leave it out", el)
		}
		base, ok := targets.Lookup(name)
		if !ok {
			return nil, inputf("--targets: %s: unknown target %q (valid: %s)", el, name, strings.Join(targets.Names(), ", "))
		}
		switch {
		case base.JVM && base.Module != "":
			if !mavenVersionRE.MatchString(version) {
				return nil, inputf("--targets: %s: %q is not a Maven version of %s (42.7.3); a JDBC driver cannot be built from a checkout", el, version, base.Module)
			}
			out = appendVariant(out, targets.VariantOf(base, version, version))
			continue
		case base.Module == "" || base.Package == "" || strings.HasPrefix(base.Package, "../"):
			return nil, inputf("--targets: %s: %s is not a driver module of its own", el, name)
		case !slices.Contains(dbs, base.DB):
			return nil, inputf("--targets: %s is a target of %s, not of --db %s", el, base.DB, joinDBs(dbs))
		}
		var label string
		switch {
		case version == "":
			return nil, inputf("--targets: %s: name a version after the @ (v1.2.3) or a local checkout (./dir)", el)
		case strings.HasPrefix(version, ".") || strings.HasPrefix(version, "/") || strings.HasPrefix(version, "~"):
			if rest, ok := strings.CutPrefix(version, "~"); ok {
				home, err := os.UserHomeDir()
				if err != nil {
					return nil, inputf("--targets: %s: %v", el, err)
				}
				version = home + rest
			}
			abs := version
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(dir, abs)
			}
			abs = filepath.Clean(abs)
			if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
				return nil, inputf("--targets: %s: %s is not a directory", el, abs)
			}
			version, label = abs, "local-"+labelSafe(filepath.Base(abs))
		case versionRE.MatchString(version):
			label = version
		default:
			return nil, inputf("--targets: %s: %q is neither a version (v1.2.3) nor a directory (./dir)", el, version)
		}
		out = appendVariant(out, targets.VariantOf(base, version, label))
	}
	return out, nil
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
// declare the driver's module. What does not resolve is an InputError, one
// line naming the target, the version and what the proxy said.
func resolveVariants(ctx context.Context, p *Plan) (map[string]launcher.Resolved, error) {
	out := map[string]launcher.Resolved{}
	b, jb := &launcher.Builder{}, &launcher.JarBuilder{}
	for _, t := range p.Runnable {
		if t.Base == "" {
			continue
		}
		if t.JVM {
			if err := jb.ResolveVersion(ctx, t.Module, t.Version); err != nil {
				return nil, inputf("--targets: %s: %v", t.Name, err)
			}
			out[t.Name] = launcher.Resolved{Variant: launcher.Variant{Module: t.Module, Version: t.Version}, Maven: true}
			continue
		}
		r, err := b.Resolve(ctx, variantOf(t))
		if err != nil {
			return nil, inputf("--targets: %s: %v", t.Name, err)
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
