package deque

// sync/atomic is imported for the compiler's sake. This package reaches
// sync/atomic's types only through explore/atomic's aliases, and a
// package that does not import sync/atomic itself has its atomic methods
// priced by the inliner as ordinary calls (a Store costs 60 rather than
// 7), so that functions around them stop being inlined. With the import
// the package compiles to exactly the code it would with sync/atomic
// (TestEveryUserImportsSyncAtomic in explore/atomic keeps it so).
import _ "sync/atomic"
