// Package match finds wait_for_text's patterns — literal strings or RE2
// regular expressions — in a wait's recent text, counting only matches
// that end in new text and lie outside the echo the wait discounts.
//
// Concurrency: a [Matcher] is immutable once made by [New], and safe for
// concurrent use.
package match
