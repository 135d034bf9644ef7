package servers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// templateFormat changes whenever the way data directories are initialized
// changes, so that older templates are not reused.
const templateFormat = "1"

// DefaultTemplateDir is where initialized data directories are cached:
// os.UserCacheDir()/sqlbench/templates, or "" when there is no cache
// directory (then nothing is cached).
func DefaultTemplateDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		return ""
	}
	return filepath.Join(base, "sqlbench", "templates")
}

// templatePath returns the cache entry for this kind and these exact
// binaries (path, size and modification time, so a package upgrade starts a
// new entry), or "" when templates are off or the kind does not use them.
func (r *run) templatePath() string {
	bins := r.eng.binaries()
	if r.opt.NoTemplates || len(bins) == 0 {
		return ""
	}
	dir := r.opt.TemplateDir
	if dir == "" {
		dir = DefaultTemplateDir()
	}
	if dir == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s|%d\n", templateFormat, r.srv.Kind, os.Geteuid())
	for _, b := range bins {
		fi, err := os.Stat(b)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%s|%d|%d\n", b, fi.Size(), fi.ModTime().UnixNano())
	}
	return filepath.Join(dir, fmt.Sprintf("%s-%s", r.srv.Kind, hex.EncodeToString(h.Sum(nil))[:16]))
}

// restoreTemplate copies a cached data directory to data and reports
// whether it did. Any problem only means initializing from scratch.
func (r *run) restoreTemplate(data string) bool {
	tmpl := r.templatePath()
	if tmpl == "" {
		return false
	}
	if fi, err := os.Stat(tmpl); err != nil || !fi.IsDir() {
		return false
	}
	if err := copyTree(tmpl, data, r.acct); err != nil {
		r.logf("%s: cannot use the cached data directory (%v); initializing instead", r.srv.Kind, err)
		if err := os.RemoveAll(data); err != nil {
			r.logf("%s: %v", r.srv.Kind, err)
		}
		return false
	}
	r.logf("%s: data directory copied from %s", r.srv.Kind, tmpl)
	return true
}

// saveTemplate caches a freshly initialized data directory. It copies into
// a temporary name and renames, so a template is either complete or absent;
// when another process got there first, its copy is kept. Older templates
// of the same kind are removed. Failures are logged, not returned.
func (r *run) saveTemplate(data string) {
	tmpl := r.templatePath()
	if tmpl == "" {
		return
	}
	parent := filepath.Dir(tmpl)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		r.logf("%s: not caching the data directory: %v", r.srv.Kind, err)
		return
	}
	tmp, err := os.MkdirTemp(parent, ".new-")
	if err != nil {
		r.logf("%s: not caching the data directory: %v", r.srv.Kind, err)
		return
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(data, filepath.Join(tmp, "data"), nil); err != nil {
		r.logf("%s: not caching the data directory: %v", r.srv.Kind, err)
		return
	}
	if err := os.Rename(filepath.Join(tmp, "data"), tmpl); err != nil {
		return // another Start saved the same template meanwhile
	}
	r.logf("%s: data directory cached in %s", r.srv.Kind, tmpl)
	old, _ := filepath.Glob(filepath.Join(parent, string(r.srv.Kind)+"-*"))
	for _, o := range old {
		if o != tmpl {
			os.RemoveAll(o)
		}
	}
}

// copyTree copies directories, regular files and symlinks from src to dst
// (which must not exist), keeping permission bits, and gives everything to
// acct when it is not nil.
func copyTree(src, dst string, acct *account) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(target, info.Mode().Perm()); err != nil {
				return err
			}
			// Mkdir applies the umask; the servers insist on exact modes.
			if err := os.Chmod(target, info.Mode().Perm()); err != nil {
				return err
			}
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if err := os.Symlink(link, target); err != nil {
				return err
			}
		case d.Type().IsRegular():
			if err := copyFile(path, target, info.Mode().Perm()); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: cannot copy a %v", path, d.Type())
		}
		if acct != nil {
			return os.Lchown(target, acct.uid, acct.gid)
		}
		return nil
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Chmod(perm); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
