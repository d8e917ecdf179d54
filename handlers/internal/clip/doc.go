// Package clip cuts pane and stream text to a result's line and byte
// limits — the newest lines, the first, or both ends — and accounts for
// what it left out in the fields every tool returning text reports
// ([Accounting]); for a program's long output it also says where the
// part left out is and gives a cursor to read it ([CutLong]).
//
// Concurrency: the package holds no state; everything in it is safe for
// concurrent use.
package clip
