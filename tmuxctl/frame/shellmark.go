package frame

import (
	"strconv"
	"strings"
)

// Shell marks are the OSC 133 sequences a shell prints around its prompt
// and each command (FinalTerm's semantic prompts, as fish ≥ 4 and the
// shell integrations of VS Code, kitty, WezTerm, Ghostty and iTerm2 print
// them):
//
//	ESC ] 133 ; A [; options] BEL   the prompt starts
//	ESC ] 133 ; B [; options] BEL   the command line starts (the prompt ends)
//	ESC ] 133 ; C [; options] BEL   the command's output starts
//	ESC ] 133 ; D [; status [; options]] BEL   the command ended with status
//
// ST (ESC \) ends one as well as BEL. Options (key=value, such as fish's
// cmdline_url) are ignored. A scanner reports each as a [Marker] whose
// Nonce is [ShellNonce], so that it travels with the frame markers (through
// taps too) and no framed command's nonce can match it.

// ShellPrefix starts every shell mark.
const ShellPrefix = "\x1b]133;"

// ShellNonce is the Nonce of every shell mark.
const ShellNonce = "osc133"

// ShellMaxLen is the longest shell mark accepted, terminator included:
// fish puts the whole command line, URL-encoded, in its C mark.
const ShellMaxLen = 4096

const (
	// PromptStart (A): the shell starts printing its prompt.
	PromptStart Kind = "A"
	// CommandStart (B): the prompt ends; the command line is typed after it.
	CommandStart Kind = "B"
	// OutputStart (C): the command line was accepted; its output follows.
	OutputStart Kind = "C"
	// CommandEnd (D): the command ended; Status is its exit status, or
	// NoStatus when the shell did not say.
	CommandEnd Kind = "D"
)

// NoStatus is the Status of a CommandEnd mark that carried none.
const NoStatus = -1

// IsShell reports whether m is a shell mark.
func (m Marker) IsShell() bool { return m.Nonce == ShellNonce }

// ParseShell reads a shell mark's body: what stands between ShellPrefix
// and the terminator.
func ParseShell(body string) (Marker, bool) {
	kind, rest, _ := strings.Cut(body, ";")
	m := Marker{Nonce: ShellNonce, Kind: Kind(kind)}
	switch m.Kind {
	case PromptStart, CommandStart, OutputStart:
		return m, true
	case CommandEnd:
		m.Status = NoStatus
		status, _, _ := strings.Cut(rest, ";")
		if n, err := strconv.Atoi(status); err == nil && n >= 0 && n <= 255 && !strings.HasPrefix(status, "+") {
			m.Status = n
		}
		return m, true
	}
	return Marker{}, false
}
