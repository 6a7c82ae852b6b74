// Package litmus is an example of litmus tests written outside wsched,
// with its package explore/litmus: the test file asks a question about
// release sequences (can a read-modify-write in a third thread pass a
// release on?) and prints every outcome and the execution behind one.
//
// The package has no code; example_test.go is the example.
package litmus
