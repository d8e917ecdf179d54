//go:build !linux && !freebsd

package tmuxctl

import "syscall"

// dieWithParent has no equivalent here (macOS has none): children of a
// killed instance are released by the next start instead.
func dieWithParent() *syscall.SysProcAttr { return nil }
