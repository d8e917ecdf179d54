//go:build !unix

package shellmarks

import "os"

func ownedByMe(os.FileInfo) bool { return true }
