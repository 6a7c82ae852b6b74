// Package mutant reads the mutant catalog in mutants/ and applies one mutant
// to a private copy of the module.
//
// A mutant is a deliberate bug: one exact piece of text in one file of impl/
// and the text that replaces it. The catalog is how the project shows that
// each check has teeth: every mutant must make at least one check fail. A
// mutant whose original text no longer occurs exactly once in its file is an
// error, so the catalog cannot silently drift away from the code.
//
// This package never edits the working tree; it copies the module first.
package mutant
