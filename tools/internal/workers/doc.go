// Package workers runs short functions on goroutines that outlive them.
//
// A new goroutine starts with a small stack, and a tool call (JSON
// decoding and encoding, a tmux exchange) grows it several times over:
// copying stacks was about 8% of a read call's server CPU. A goroutine
// that stays for the next call keeps the stack it grew.
package workers
