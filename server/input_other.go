//go:build !unix

package server

import "os"

// interruptibleInput returns f: outside unix the transport's line reader
// ends with its input or the process.
func interruptibleInput(f *os.File) (in *os.File, restore func()) { return f, func() {} }
