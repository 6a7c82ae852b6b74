package engine

import (
	"reflect"
	"runtime"
	"testing"
	"unsafe"
)

// A run that passed hands its thread records to the next run (run.newThread),
// which finds each zeroed but for what is made once per record.
func TestReusedThreadRecordStartsZeroed(t *testing.T) {
	e := &explorer{opt: Options{}.WithDefaults(), body: func() {
		flag := true
		th := Go("child", func() {
			BlockOnWith(1, false, func(p unsafe.Pointer) bool { return *(*bool)(p) }, unsafe.Pointer(&flag), 0, "flag")
			Gosched()
		})
		th.Join()
	}}
	first := e.runOnce(&dfsGuide{}, false)
	if first.failure != nil {
		t.Fatalf("the run failed: %v", first.failure)
	}
	old := append([]*thread(nil), first.threads...)
	if len(old) != 2 {
		t.Fatalf("the run had %d threads, want 2", len(old))
	}
	// Leave every field of the records set, as a run could.
	dirtyAll(old)
	second := e.runOnce(&dfsGuide{}, false)
	if second.failure != nil {
		t.Fatalf("the second run failed: %v", second.failure)
	}
	for i, x := range second.threads {
		if x != old[i] {
			t.Fatalf("thread %d: a new record, want the last run's", i)
		}
	}
	// What a run could leave set, the next finds zeroed.
	dirtyAll(old)
	r := &run{threads: second.threads[:0]}
	for i := range second.threads {
		x := r.newThread()
		if x != old[i] {
			t.Fatalf("newThread %d returned a new record, want the kept one", i)
		}
		got := *x
		if got.main == nil || got.argReady == nil || got.anyClosed == nil {
			t.Fatalf("record %d lost what is made once per record", i)
		}
		got.main, got.argReady, got.anyClosed = nil, nil, nil
		if !reflect.DeepEqual(got, thread{}) {
			t.Fatalf("record %d is not zeroed: %+v", i, got)
		}
		r.threads = append(r.threads, x)
	}
	// A failed run's records are not handed on: its goroutines may still
	// hold them.
	e.body = func() { Failf("fails") }
	if f := e.runOnce(&dfsGuide{}, false); f.failure == nil {
		t.Fatal("the failing run passed")
	}
	if e.threads != nil {
		t.Fatal("a failed run's thread records were kept for the next")
	}
}

// dirtyAll sets every field of the records but those made once per
// record.
func dirtyAll(ts []*thread) {
	for _, x := range ts {
		main, argReady, anyClosed := x.main, x.argReady, x.anyClosed
		dirty(reflect.ValueOf(x).Elem())
		x.main, x.argReady, x.anyClosed = main, argReady, anyClosed
	}
}

// dirty sets every field of struct v, and every element of its arrays, to
// a value other than zero; a kind it does not know fails the test's run,
// so that a field of a new kind is not left zero unseen.
func dirty(v reflect.Value) {
	for i := range v.NumField() {
		f := v.Field(i)
		dirtyValue(reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
	}
}

func dirtyValue(f reflect.Value) {
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f.SetUint(7)
	case reflect.String:
		f.SetString("x")
	case reflect.Func:
		f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value {
			panic("a stale function of a reused record was called")
		}))
	case reflect.Pointer:
		f.Set(reflect.New(f.Type().Elem()))
	case reflect.UnsafePointer:
		f.SetPointer(unsafe.Pointer(new(int)))
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 1))
	case reflect.Chan:
		ch := reflect.MakeChan(reflect.ChanOf(reflect.BothDir, f.Type().Elem()), 0)
		f.Set(ch.Convert(f.Type()))
	case reflect.Struct:
		dirty(f)
	case reflect.Array:
		for j := range f.Len() {
			dirtyValue(f.Index(j))
		}
	default:
		panic("dirty: a field of kind " + f.Kind().String() + ": teach dirtyValue to set it")
	}
}

// Once a search has warmed up, a go statement and the waits of BlockOnWith
// and BlockOnCloseOf allocate nothing: a run reuses the thread records and
// coroutines of the run before it, a wait's condition takes its argument
// or is held in the record, and the search lists a decision's
// alternatives in memory it keeps.
func TestGoAndWaitsAllocateNothing(t *testing.T) {
	ready := func(p unsafe.Pointer) bool { return *(*bool)(p) }
	flag := true
	closed := make(chan struct{})
	close(closed)
	mallocs := func(goes, waits, selects int) uint64 {
		e := &explorer{opt: Options{}.WithDefaults(), body: func() {
			for range goes {
				Go("g", func() {})
			}
			for range waits {
				BlockOnWith(1, false, ready, unsafe.Pointer(&flag), 0, "flag")
			}
			for range selects {
				BlockOnCloseOf(nil, closed, nil, "closed")
			}
		}}
		for range 3 { // warm up: records, coroutines, decisions
			e.runOnce(&dfsGuide{}, false)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const runs = 20
		for range runs {
			if r := e.runOnce(&dfsGuide{}, false); r.failure != nil {
				t.Fatalf("the run failed: %v", r.failure)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.Mallocs - before.Mallocs) / runs
	}
	base := mallocs(0, 0, 0)
	if got := mallocs(0, 50, 0); got > base {
		t.Errorf("50 waits of BlockOnWith: %d allocations a run, against %d with none", got, base)
	}
	if got := mallocs(0, 0, 50); got > base {
		t.Errorf("50 waits of BlockOnCloseOf: %d allocations a run, against %d with none", got, base)
	}
	if got := mallocs(8, 0, 0); got > base {
		t.Errorf("8 go statements: %d allocations a run, against %d with none", got, base)
	}
}
