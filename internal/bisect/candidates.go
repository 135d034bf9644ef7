package bisect

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/semver"
)

// InputError is a problem with what the user named: an end that is not
// there, ends in the wrong order. Its message is one line.
type InputError struct{ Msg string }

func (e InputError) Error() string { return e.Msg }

func inputf(format string, args ...any) error { return InputError{fmt.Sprintf(format, args...)} }

// Versions returns the releases of module after good up to bad, oldest
// first, bad last, as the module proxy lists them (go list -m -versions,
// run with the Go toolchain goCmd in dir). Either end missing from the
// list, or good not before bad, is an InputError.
func Versions(ctx context.Context, goCmd, dir, module, good, bad string) ([]string, error) {
	cmd := exec.CommandContext(ctx, goCmd, "list", "-m", "-versions", module)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, inputf("%s: the module proxy's list of versions: %s", module, firstLine(stderr.String(), err))
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return nil, inputf("%s: go list -m -versions printed nothing", module)
	}
	return between(module, f[1:], good, bad)
}

// between returns the versions of list after good up to bad, in semantic
// version order.
func between(module string, list []string, good, bad string) ([]string, error) {
	semver.Sort(list)
	for _, end := range []string{good, bad} {
		if !slices.Contains(list, end) {
			return nil, inputf("%s: %s is not a release the module proxy lists (%d releases, %s to %s)",
				module, end, len(list), first(list), last(list))
		}
	}
	switch c := semver.Compare(good, bad); {
	case c == 0:
		return nil, inputf("--good and --bad are both %s: nothing to bisect", good)
	case c > 0:
		return nil, inputf("--good %s comes after --bad %s: name the older release as --good", good, bad)
	}
	return slices.Clone(list[slices.Index(list, good)+1 : slices.Index(list, bad)+1]), nil
}

func first(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return l[0]
}

func last(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return l[len(l)-1]
}

// Commit is a commit of a local checkout.
type Commit struct {
	// Hash is the full hash; Subject the first line of its message.
	Hash, Subject string
}

// Short is the commit's abbreviated hash (12 hex digits).
func (c Commit) Short() string { return c.Hash[:min(12, len(c.Hash))] }

// Commits resolves good and bad in the git repository repo and returns
// the commits after good up to bad along bad's first parents, oldest
// first, bad last (git rev-list --first-parent good..bad), with the good
// end itself. An end that does not resolve, equal ends, or a good end that
// is not an ancestor of the bad one is an InputError.
func Commits(ctx context.Context, repo, good, bad string) (goodEnd Commit, list []Commit, err error) {
	if _, err := os.Stat(filepath.Join(repo, "go.mod")); err != nil {
		return Commit{}, nil, inputf("--checkout %s: no go.mod there: the driver module's checkout", repo)
	}
	var hashes [2]string
	for i, end := range []string{good, bad} {
		h, err := git(ctx, repo, "rev-parse", "--verify", "--quiet", end+"^{commit}")
		if err != nil {
			return Commit{}, nil, inputf("--checkout %s: %s is not a commit there", repo, end)
		}
		hashes[i] = strings.TrimSpace(h)
	}
	if hashes[0] == hashes[1] {
		return Commit{}, nil, inputf("--good %s and --bad %s are the same commit: nothing to bisect", good, bad)
	}
	if _, err := git(ctx, repo, "merge-base", "--is-ancestor", hashes[0], hashes[1]); err != nil {
		return Commit{}, nil, inputf("--good %s is not an ancestor of --bad %s in %s", good, bad, repo)
	}
	out, err := git(ctx, repo, "log", "--first-parent", "--reverse", "--format=%H %s", hashes[0]+".."+hashes[1])
	if err != nil {
		return Commit{}, nil, err
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		h, s, _ := strings.Cut(l, " ")
		list = append(list, Commit{Hash: h, Subject: s})
	}
	if len(list) == 0 || list[len(list)-1].Hash != hashes[1] {
		return Commit{}, nil, inputf("--bad %s is not reached from --good %s along first parents", bad, good)
	}
	subject, err := git(ctx, repo, "log", "-1", "--format=%s", hashes[0])
	if err != nil {
		return Commit{}, nil, err
	}
	return Commit{Hash: hashes[0], Subject: strings.TrimSpace(subject)}, list, nil
}

// Extract writes the tree of commit c of repo into dir (git archive), which
// must not exist: a checkout of that commit that leaves the repository and
// its work tree as they were.
func Extract(ctx context.Context, repo string, c Commit, dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "archive", "--format=tar", c.Hash)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git archive %s: %w", c.Short(), err)
	}
	terr := untar(pipe, dir)
	if terr != nil {
		_, _ = io.Copy(io.Discard, pipe)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %s", c.Short(), firstLine(stderr.String(), err))
	}
	if terr != nil {
		return fmt.Errorf("extract %s: %w", c.Short(), terr)
	}
	return nil
}

// untar writes the regular files and directories of a tar stream into dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(p, filepath.Clean(dir)+string(filepath.Separator)) {
			return fmt.Errorf("%s: a path outside the tree", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o755|0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}

// git runs git in repo and returns its output.
func git(ctx context.Context, repo string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %s", args[0], firstLine(stderr.String(), err))
	}
	return string(out), nil
}

// firstLine is the first line of a command's error output, or err when it
// wrote none.
func firstLine(s string, err error) string {
	if l, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); l != "" {
		return l
	}
	return err.Error()
}
