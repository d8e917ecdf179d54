//go:build darwin || freebsd

package inputwait

import (
	"context"
	"os/exec"
	"time"
)

// OSFacts returns the facts of this OS: on macOS and FreeBSD, which have
// no /proc, what ps tells (state, CPU time, wait channel).
func OSFacts() Facts { return psFacts{} }

// psFacts runs ps for each look.
type psFacts struct{}

func (psFacts) Foreground(pid int, tty string) (Group, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ps", psArgs(tty)...).Output()
	if err != nil && len(out) == 0 {
		return Group{}, ErrNoProcess
	}
	return parsePS(string(out))
}
