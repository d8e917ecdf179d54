//go:build !unix

package main

import "os"

// interruptibleInput returns f: outside unix the transport's line reader
// ends with its input or the process.
func interruptibleInput(f *os.File) (in *os.File, restore func()) { return f, func() {} }
