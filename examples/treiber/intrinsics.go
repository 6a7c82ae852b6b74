package treiber

// sync/atomic is imported for the compiler's sake: explore/atomic's types
// are sync/atomic's in a normal build, but the inliner prices their
// methods as the intrinsics they are only in a package that imports
// sync/atomic itself; without it every atomic costs an ordinary call's
// budget and the functions around it stop being inlined.
import _ "sync/atomic"
