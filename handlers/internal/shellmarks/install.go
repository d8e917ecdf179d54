package shellmarks

import (
	"bytes"
	"embed"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

//go:embed bash.sh marks.fish zsh/.zshenv zsh/.zprofile zsh/.zshrc
var files embed.FS

// An Installer writes the files once, on first use, into a private
// directory of this user named from their content, where they stay: a
// shell reads them when it starts, which may be after the server that
// made its pane has exited (tmux-mcp call create_session), and every
// instance of the same version shares them.
type Installer struct {
	base string
	once sync.Once
	dir  string
	err  error
}

// NewInstaller returns an Installer for a directory in base ("":
// $TMUX_TMPDIR, else the temporary directory).
func NewInstaller(base string) *Installer { return &Installer{base: base} }

// Install writes the files if they are not written yet and returns their
// directory.
func (in *Installer) Install() (string, error) {
	in.once.Do(func() { in.dir, in.err = install(in.base) })
	return in.dir, in.err
}

// DirName is the directory's name: tmux-mcp-marks-<uid>-<content hash>.
func DirName() string {
	h := fnv.New32a()
	fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := files.ReadFile(path)
			fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
			h.Write(b)
		}
		return nil
	})
	return fmt.Sprintf("tmux-mcp-marks-%d-%08x", os.Getuid(), h.Sum32())
}

func install(base string) (string, error) {
	if base == "" {
		base = os.Getenv("TMUX_TMPDIR")
	}
	if base == "" {
		base = os.TempDir()
	}
	dir := filepath.Join(base, DirName())
	if err := privateDir(dir); err != nil {
		return "", fmt.Errorf("writing shell marks: %w", err)
	}
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == "." {
			return err
		}
		target := filepath.Join(dir, path)
		if d.IsDir() {
			return privateDir(target)
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		if have, err := os.ReadFile(target); err == nil && bytes.Equal(have, b) {
			return nil
		}
		// Whole or not at all: another instance may be writing the same.
		tmp, err := os.CreateTemp(filepath.Dir(target), ".new-*")
		if err != nil {
			return err
		}
		_, err = tmp.Write(b)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), target)
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
		return err
	})
	if err != nil {
		return "", fmt.Errorf("writing shell marks: %w", err)
	}
	return dir, nil
}

// privateDir makes dir, or checks that it is a directory of this user's
// that no one else may write (a name in a shared /tmp could be anyone's).
func privateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || !ownedByMe(fi) {
		return fmt.Errorf("%s is not a private directory of this user", dir)
	}
	return nil
}
