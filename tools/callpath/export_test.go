package callpath

import "reflect"

// What the tests in package callpath_test, which read the catalogue
// (package tools imports this one), use of this package's unexported names.
var (
	Canonical    = canonical
	Decoded      = decoded
	ReplacedUTF8 = replacedUTF8
)

// NeverCanonical reports whether no value of t is canonical.
func NeverCanonical(t reflect.Type) bool { return verdictOf(t) == never }
