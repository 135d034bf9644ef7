package runner

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/google/pprof/profile"
)

// mergeProfile merges a run's CPU profile (runtime/pprof's output) into
// file, creating it on the first run: the slices of a cell's runs
// accumulate into one profile that go tool pprof opens.
func mergeProfile(file string, run []byte) error {
	p, err := profile.Parse(bytes.NewReader(run))
	if err != nil {
		return fmt.Errorf("read the run's CPU profile: %w", err)
	}
	old, err := os.ReadFile(file)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("CPU profile: %w", err)
	default:
		prev, err := profile.Parse(bytes.NewReader(old))
		if err != nil {
			return fmt.Errorf("CPU profile %s: %w", file, err)
		}
		// Runs are separate profiles of one program: their sample types
		// match, their periods too.
		if p, err = profile.Merge([]*profile.Profile{prev, p}); err != nil {
			return fmt.Errorf("merge CPU profiles into %s: %w", file, err)
		}
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return fmt.Errorf("write CPU profile: %w", err)
	}
	if err := writeFileAtomic(file, buf.Bytes()); err != nil {
		return fmt.Errorf("CPU profile: %w", err)
	}
	return nil
}
