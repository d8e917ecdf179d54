//go:build !linux

package tmuxctl

import "syscall"

// dieWithParent has no portable equivalent outside Linux: children of a
// killed instance are released by the next start instead.
func dieWithParent() *syscall.SysProcAttr { return nil }
