//go:build unix

package localpg

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// account is the user initdb and postgres run as: the current one, or, for root (whom both refuse),
// the user postgres (or nobody).
type account struct {
	name     string
	uid, gid uint32
	switchTo bool
}

func serverUser() (*account, error) {
	if os.Geteuid() != 0 {
		return &account{}, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil {
			continue
		}
		return &account{name: name, uid: uint32(uid), gid: uint32(gid), switchTo: true}, nil
	}
	return nil, errors.New("running as root, which initdb and postgres refuse, and no user postgres or nobody exists to run them as")
}

// own gives dir to the account and checks that the account can reach it through its parents.
func (a *account) own(dir string) error {
	if !a.switchTo {
		return nil
	}
	if err := os.Chown(dir, int(a.uid), int(a.gid)); err != nil {
		return err
	}
	for parent := filepath.Dir(dir); ; parent = filepath.Dir(parent) {
		info, err := os.Stat(parent)
		if err != nil {
			return err
		}
		if !a.canEnter(info) {
			return fmt.Errorf("running as root, postgres runs as the user %s, which cannot enter %s (on the way to %s); use a directory it can reach", a.name, parent, dir)
		}
		if parent == filepath.Dir(parent) {
			return nil
		}
	}
}

func (a *account) canEnter(info os.FileInfo) bool {
	mode := info.Mode().Perm()
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case !ok:
		return true
	case st.Uid == a.uid:
		return mode&0o100 != 0
	case st.Gid == a.gid:
		return mode&0o010 != 0
	default:
		return mode&0o001 != 0
	}
}

// procAttr runs a command as the account, in its own process group (a terminal's Ctrl-C reaches the
// program, which then stops postgres in order); a server also stops when its parent dies.
func (a *account) procAttr(server bool) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if a.switchTo {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid}
	}
	if server {
		stopWithParent(attr)
	}
	return attr
}
