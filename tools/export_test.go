package tools

// What the whole-server tests (package tools_test, which builds the server
// through package server: package tools cannot import it) use of this
// package's unexported names and in-package test data.
var (
	ValidExamples  = validExamples
	ShortenQuoted  = shortenQuoted
	LeanValidation = leanValidation
)

const QuoteKeep = quoteKeep
