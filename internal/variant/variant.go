// Package variant splits a target's name into the catalogue target it is a
// variant of and the suffixes that make it one: name@version+spin=D.
//
// The grammar is the one --targets, --baseline and a results file's driver=
// key share: an optional '@' and a version (a release, v1.14.22; a local
// checkout, ./go-sqlite3; or the label a checkout is recorded under,
// local-go-sqlite3), then an optional spin suffix, "+spin=" and a duration.
// Catalogue names hold neither '@' nor "+spin=", so the first '@' ends the
// name; the last "+spin=" begins the spin, since a version's build metadata
// (v1.2.3+incompatible) holds no '='. Parse only splits: whether the parts
// name a known target, a version or a duration is for its callers to check.
package variant

import (
	"strings"

	"github.com/sqlbench/sqlbench/targets"
)

// Name is a target's name split into its parts.
type Name struct {
	// Base is the name of the catalogue target (or its driver key): mattn.
	Base string
	// Version follows the '@' (v1.14.22, ./go-sqlite3, local-base); "" if
	// there is none, or nothing follows it (HasVersion tells them apart).
	Version string
	// Spin follows "+spin=" (50us); "" if there is none (see HasSpin).
	Spin string
	// HasVersion and HasSpin say whether the name holds an '@' and a
	// "+spin=".
	HasVersion, HasSpin bool
}

// Parse splits s into its parts; a name without either suffix is its Base
// alone.
func Parse(s string) Name {
	var n Name
	rest := s
	if i := strings.LastIndex(s, targets.SpinSuffix); i >= 0 {
		rest, n.Spin, n.HasSpin = s[:i], s[i+len(targets.SpinSuffix):], true
	}
	n.Base, n.Version, n.HasVersion = strings.Cut(rest, "@")
	return n
}

// IsVariant reports whether the name has a version or a spin suffix.
func (n Name) IsVariant() bool { return n.HasVersion || n.HasSpin }

// Suffix returns what follows Base in the name: "@v1.14.22+spin=50us", or
// "" for a catalogue name.
func (n Name) Suffix() string {
	var b strings.Builder
	if n.HasVersion {
		b.WriteString("@" + n.Version)
	}
	if n.HasSpin {
		b.WriteString(targets.SpinSuffix + n.Spin)
	}
	return b.String()
}

// String returns the name whole: Base and Suffix.
func (n Name) String() string { return n.Base + n.Suffix() }
