package shellmarks

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

//go:embed bash.sh marks.fish zsh/.zshenv zsh/.zprofile zsh/.zshrc
var files embed.FS

// An Installer writes the files into dir once, on first use.
type Installer struct {
	dir  string
	once sync.Once
	err  error
}

// NewInstaller returns an Installer for directory dir, which must be
// private to this user (the hub's own directory is).
func NewInstaller(dir string) *Installer { return &Installer{dir: dir} }

// Install writes the files if they are not written yet and returns their
// directory.
func (in *Installer) Install() (string, error) {
	in.once.Do(func() { in.err = write(in.dir) })
	return in.dir, in.err
}

func write(dir string) error {
	return fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == "." {
			return err
		}
		target := filepath.Join(dir, path)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return fmt.Errorf("writing shell marks: %w", err)
		}
		if err := os.WriteFile(target, b, 0o600); err != nil {
			return fmt.Errorf("writing shell marks: %w", err)
		}
		return nil
	})
}
