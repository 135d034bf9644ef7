package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Formats returns the report formats with their file extensions; text has
// none (it goes to a terminal).
func Formats() map[string]string {
	return map[string]string{
		"text":     "",
		"markdown": ".md",
		"html":     ".html",
		"csv":      ".csv",
		"json":     ".json",
		"png":      ".png",
	}
}

// WriteFormat writes r in one file format (markdown, html, csv or json) to w.
func WriteFormat(w io.Writer, r *Report, format string) error {
	switch format {
	case "markdown":
		return Markdown(w, r)
	case "html":
		return HTML(w, r)
	case "csv":
		return CSV(w, r)
	case "json":
		return JSON(w, r)
	}
	return fmt.Errorf("no writer for format %q", format)
}

// FileError is a report file that could not be written.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("report file %s: %v", e.Path, e.Err) }

// Unwrap returns the cause.
func (e *FileError) Unwrap() error { return e.Err }

// ConfigSuffix ends the name of the CSV's sidecar (PREFIX-config.csv): the
// configurations its config column numbers (ConfigCSV).
const ConfigSuffix = "-config.csv"

// WriteFiles writes r into files named after prefix, one per format
// (PREFIX.md, PREFIX.html ...; one PREFIX-<chart>.png per chart for png;
// for csv PREFIX.csv and its sidecar PREFIX-config.csv),
// and returns the paths written. A file that cannot be written is a
// *FileError.
func WriteFiles(r *Report, prefix string, formats []string) ([]string, error) {
	var written []string
	for _, f := range formats {
		if f == "png" {
			for _, sec := range r.Sections() {
				for _, c := range sec.Charts {
					img, err := c.PNG()
					if err != nil {
						return written, err
					}
					path := prefix + "-" + c.ID + ".png"
					if err := writeWhole(path, img); err != nil {
						return written, err
					}
					written = append(written, path)
				}
			}
			continue
		}
		var buf bytes.Buffer
		if err := WriteFormat(&buf, r, f); err != nil {
			return written, err
		}
		path := prefix + Formats()[f]
		if err := writeWhole(path, buf.Bytes()); err != nil {
			return written, err
		}
		written = append(written, path)
		if f == "csv" { // the configurations the CSV's config column numbers, once each
			buf.Reset()
			if err := ConfigCSV(&buf, r); err != nil {
				return written, err
			}
			path := prefix + ConfigSuffix
			if err := writeWhole(path, buf.Bytes()); err != nil {
				return written, err
			}
			written = append(written, path)
		}
	}
	return written, nil
}

// writeWhole writes b to path through a temp file in the same directory,
// renamed into place only when complete: a disk that fills leaves no
// empty or cut-off report behind.
func writeWhole(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return &FileError{path, pathErr(err)}
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return &FileError{path, pathErr(err)}
	}
	return nil
}

// pathErr returns the cause of a file error without the path, which the
// caller names.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
