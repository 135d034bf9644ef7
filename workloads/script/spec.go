package script

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Mode is a query mode (pgbench's -M): how a statement's parameters reach
// the server.
type Mode string

// Query modes.
const (
	// Simple runs each statement through the target's one-call path
	// (bench.Conn.Exec or Query with the parameters): what the driver does
	// with them is its own (it may bind them server-side or client-side).
	Simple Mode = "simple"
	// Extended prepares each statement, runs it with its parameters and
	// closes it, every execution: the parameters bound per execution.
	Extended Mode = "extended"
	// Prepared prepares each statement once per connection, when a run
	// begins, and runs it with its parameters every execution.
	Prepared Mode = "prepared"
)

// ParseMode checks a --query-mode value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Simple, Extended, Prepared:
		return m, nil
	}
	return "", fmt.Errorf("must be simple, extended or prepared, got %q", s)
}

// Source is a script file's name, content and weight.
type Source struct {
	Name   string `json:"name"`
	Text   string `json:"text"`
	Weight int    `json:"weight,omitempty"`
}

// Spec is a script workload as a session runs it: what the runners are
// sent.
type Spec struct {
	// Scripts are the scripts an execution draws one of, by weight.
	Scripts []Source `json:"scripts"`
	// Setup, when set, runs once per cell before its first run, untimed.
	Setup *Source `json:"setup,omitempty"`
	// Mode is the query mode; empty means Simple.
	Mode Mode `json:"mode,omitempty"`
	// Clients is the number of connections, each its own goroutine, the
	// executions are shared out to (pgbench's -c); 0 means 1.
	Clients int `json:"clients,omitempty"`
	// Time, when set, is how long each timed run lasts instead of a count
	// of executions.
	Time time.Duration `json:"time,omitempty"`
}

// MaxClients bounds --clients.
const MaxClients = 256

// MaxTime bounds --time.
const MaxTime = 24 * time.Hour

// Load reads a --script argument, FILE or FILE@WEIGHT, into a Source.
func Load(arg string) (Source, error) {
	name, weight := arg, 1
	if i := strings.LastIndexByte(arg, '@'); i >= 0 {
		w, err := strconv.Atoi(arg[i+1:])
		if err != nil || w < 1 {
			return Source{}, fmt.Errorf("%s: weight %q is not a positive integer", arg, arg[i+1:])
		}
		name, weight = arg[:i], w
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return Source{}, err
	}
	return Source{Name: name, Text: string(b), Weight: weight}, nil
}

// Encode returns the spec as one string, for a runner request.
func (s Spec) Encode() string {
	b, _ := json.Marshal(s) // cannot fail: strings and numbers
	return string(b)
}

// Decode reads a spec from Encode's string.
func Decode(text string) (Spec, error) {
	var s Spec
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return s, fmt.Errorf("script spec: %w", err)
	}
	return s, nil
}

// Set is a spec with its scripts parsed.
type Set struct {
	Spec
	Scripts []*Script
	Setup   *Script
	total   int // the sum of the weights
}

// Compile parses every script of s. The first problem is an *Error naming
// its file and line.
func Compile(s Spec) (*Set, error) {
	if len(s.Scripts) == 0 {
		return nil, fmt.Errorf("no script")
	}
	if s.Mode == "" {
		s.Mode = Simple
	}
	if _, err := ParseMode(string(s.Mode)); err != nil {
		return nil, fmt.Errorf("query mode %w", err)
	}
	if s.Clients < 0 || s.Clients > MaxClients {
		return nil, fmt.Errorf("clients must be 1 to %d, got %d", MaxClients, s.Clients)
	}
	if s.Clients == 0 {
		s.Clients = 1
	}
	if s.Time < 0 || s.Time > MaxTime {
		return nil, fmt.Errorf("time must be at most %v, got %v", MaxTime, s.Time)
	}
	set := &Set{Spec: s}
	for _, src := range s.Scripts {
		sc, err := Parse(src.Name, src.Text, max(src.Weight, 1))
		if err != nil {
			return nil, err
		}
		set.Scripts = append(set.Scripts, sc)
		set.total += sc.Weight
	}
	if s.Setup != nil {
		sc, err := Parse(s.Setup.Name, s.Setup.Text, 1)
		if err != nil {
			return nil, err
		}
		set.Setup = sc
	}
	return set, nil
}

// Statements returns every statement of the set's scripts, in order: what
// per-statement results are numbered by (from 1).
func (set *Set) Statements() []*Statement {
	var out []*Statement
	for _, sc := range set.Scripts {
		out = append(out, sc.Stmts...)
	}
	return out
}
