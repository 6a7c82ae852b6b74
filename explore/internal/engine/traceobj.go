package engine

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"unicode"
)

// Objects in a trace are named by identity, not by what they hold: a
// pointer prints as its object's name, the same at every step (n3, the
// third object of a type whose name starts with n: a node), so that a
// node that comes back (the ABA of a recycling stack) prints as the
// same name coming back. A location inside a named object prints as the
// object's name and the field's path (r2.tail, n3.next, r1.buf[2]), so
// the ring's tail of one ring is told from another's whatever the code
// called them. A pointer to plain data (no pointers, no atomics inside)
// prints with the data it pointed to when the step ran beside the name:
// i3(7), t2{7}.
//
// The objects are those the scenario named (Object), then every object a
// traced value pointed to, in the order they first appear. Names are
// per type: the type's first letter, lower case, and a count; a second
// type with the same first letter is named by its whole name (node1,
// nodeList1) so that no two types share a prefix. The run keeps every
// traced value, so no object's address is reused while it is named.

type traceObject struct {
	name string
	addr uintptr
	typ  reflect.Type  // the pointee's type
	ptr  reflect.Value // the pointer itself
}

type objectTable struct {
	objs     []*traceObject
	byPtr    map[objKey]*traceObject
	prefixOf map[reflect.Type]string
	owner    map[string]reflect.Type // a prefix -> the type it names
	count    map[string]int
	unsafe   map[uintptr]int // unsafe.Pointer values: ptr1, ptr2, ...
}

type objKey struct {
	addr uintptr
	typ  reflect.Type
}

// newObjectTable names the run's objects: the scenario's, then those
// its traced values point to.
func (r *run) newObjectTable() *objectTable {
	t := &objectTable{byPtr: map[objKey]*traceObject{}, prefixOf: map[reflect.Type]string{}, owner: map[string]reflect.Type{}, count: map[string]int{}, unsafe: map[uintptr]int{}}
	for _, o := range r.objects {
		v := reflect.ValueOf(o.p)
		if v.Kind() != reflect.Pointer || v.IsNil() {
			continue
		}
		t.add(v, o.name)
	}
	for _, s := range r.trace {
		for i, a := range s.args {
			if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer && !v.IsNil() {
				t.add(v, "")
				if d := reflect.ValueOf(derefAt(s.derefs, i)); d.Kind() == reflect.Pointer && !d.IsNil() {
					t.add(d, "")
				}
			}
		}
	}
	return t
}

// add names the object v points to, if it has no name yet.
func (t *objectTable) add(v reflect.Value, name string) *traceObject {
	k := objKey{v.Pointer(), v.Type().Elem()}
	if o := t.byPtr[k]; o != nil {
		return o
	}
	if name == "" {
		p := t.prefix(k.typ)
		t.count[p]++
		name = fmt.Sprintf("%s%d", p, t.count[p])
	}
	o := &traceObject{name: name, addr: k.addr, typ: k.typ, ptr: v}
	t.byPtr[k] = o
	t.objs = append(t.objs, o)
	return o
}

// prefix is the name's stem for objects of type typ.
func (t *objectTable) prefix(typ reflect.Type) string {
	if p, ok := t.prefixOf[typ]; ok {
		return p
	}
	name := typ.Name()
	if i := strings.IndexByte(name, '['); i >= 0 { // Ring[...item]
		name = name[:i]
	}
	if name == "" {
		name = "obj"
		if typ.Kind() == reflect.Pointer {
			name = "p"
		}
	}
	rs := []rune(name)
	rs[0] = unicode.ToLower(rs[0])
	p := string(rs[0])
	if _, taken := t.owner[p]; taken || unicode.IsDigit(rs[len(rs)-1]) {
		p = string(rs)
		for i := 2; ; i++ {
			if _, taken := t.owner[p]; !taken {
				break
			}
			p = fmt.Sprintf("%s_%d_", string(rs), i)
		}
	}
	t.owner[p] = typ
	t.prefixOf[typ] = p
	return p
}

// legend says which type each prefix names: "n = treiber.node[int]".
var pkgPath = regexp.MustCompile(`[\w.\-]+(?:/[\w.\-]+)*/`)

func (t *objectTable) legend() string {
	var parts []string
	seen := map[string]bool{}
	for _, o := range t.objs {
		p := t.prefixOf[o.typ]
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		parts = append(parts, p+" = "+pkgPath.ReplaceAllString(o.typ.String(), ""))
	}
	return strings.Join(parts, ", ")
}

// pointer is the name of the object v points to (v a non-nil pointer).
func (t *objectTable) pointer(v reflect.Value) string {
	return t.add(v, "").name
}

// unsafePointer numbers an unsafe.Pointer value, which has no type to
// name it by.
func (t *objectTable) unsafePointer(p uintptr) int {
	n, ok := t.unsafe[p]
	if !ok {
		n = len(t.unsafe) + 1
		t.unsafe[p] = n
	}
	return n
}

// location names the location at a: the innermost named object that
// holds it, and the path of the field (or array element) at a within it.
// ok is false when no named object holds a.
func (t *objectTable) location(a uintptr) (string, bool) {
	var best *traceObject
	for _, o := range t.objs {
		if a >= o.addr && a < o.addr+o.typ.Size() && (best == nil || o.typ.Size() < best.typ.Size()) {
			best = o
		}
	}
	if best != nil {
		return best.name + fieldPath(best.typ, a-best.addr), true
	}
	// A slice field's elements live outside the object: r1.slots[3].
	for _, o := range t.objs {
		if o.typ.Kind() != reflect.Struct {
			continue
		}
		v := o.ptr.Elem()
		for i := 0; i < o.typ.NumField(); i++ {
			f := o.typ.Field(i)
			if f.Type.Kind() != reflect.Slice || f.Type.Elem().Size() == 0 {
				continue
			}
			sv := v.Field(i)
			base, es := sv.Pointer(), f.Type.Elem().Size()
			if sv.Len() > 0 && a >= base && a < base+uintptr(sv.Len())*es {
				k := (a - base) / es
				return fmt.Sprintf("%s.%s[%d]", o.name, f.Name, k) + fieldPath(f.Type.Elem(), a-base-k*es), true
			}
		}
	}
	return "", false
}

// fieldPath is the path to the field at offset off of a value of type
// typ: ".tail", ".buf[2]", "" for the value itself. It stops at an
// atomic (a struct of explore/atomic or sync/atomic, or a one-field
// wrapper), whose inside is not the code's.
func fieldPath(typ reflect.Type, off uintptr) string {
	path := ""
	for {
		switch typ.Kind() {
		case reflect.Struct:
			if atomicType(typ) || off == 0 && wrapper(typ) {
				return path
			}
			found := false
			for i := 0; i < typ.NumField(); i++ {
				f := typ.Field(i)
				if f.Name == "_" || off < f.Offset || off >= f.Offset+f.Type.Size() {
					continue
				}
				if !f.Anonymous {
					path += "." + f.Name
				}
				off -= f.Offset
				typ = f.Type
				found = true
				break
			}
			if !found {
				return path
			}
		case reflect.Array:
			es := typ.Elem().Size()
			if es == 0 {
				return path
			}
			i := off / es
			path += fmt.Sprintf("[%d]", i)
			off -= i * es
			typ = typ.Elem()
		default:
			return path
		}
	}
}

// wrapper reports whether typ is a one-field wrapper of a plain value
// (an atomic of another package: struct{ v int }): the path stops at
// it, as at an atomic, rather than name its inside.
func wrapper(typ reflect.Type) bool {
	if typ.NumField() != 1 {
		return false
	}
	k := typ.Field(0).Type.Kind()
	return k != reflect.Struct && k != reflect.Array
}

func atomicType(typ reflect.Type) bool {
	p := typ.PkgPath()
	return p == "sync/atomic" || strings.HasSuffix(p, "/explore/atomic")
}

// plainValue is what a pointer to plain data points to when the step
// runs: printed (i3's 7, t2's {7}) as a string, or, for a pointer to a
// pointer, the inner pointer (named when the trace is printed: p1(n2)).
// ok is false when the pointee holds a pointer, an atomic or anything
// else whose print would not be the same in every run.
func plainValue(v reflect.Value) (any, bool) {
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, false
	}
	e := v.Elem()
	if e.Kind() == reflect.Pointer {
		return e.Interface(), true
	}
	if !plainType(e.Type(), 0) {
		return nil, false
	}
	return plainString(e), true
}

// plainString prints plain data as %v would, but without calling any of
// its methods (a String method could do anything, a scheduling point
// included, in the middle of the engine's note of a step).
func plainString(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return fmt.Sprint(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprint(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprint(v.Uint())
	case reflect.Float32, reflect.Float64:
		return fmt.Sprint(v.Float())
	case reflect.String:
		return v.String()
	case reflect.Struct, reflect.Array:
		n := v.Len
		if v.Kind() == reflect.Struct {
			n = v.NumField
		}
		parts := make([]string, n())
		for i := range parts {
			if v.Kind() == reflect.Struct {
				parts[i] = plainString(v.Field(i))
			} else {
				parts[i] = plainString(v.Index(i))
			}
		}
		open, end := "{", "}"
		if v.Kind() == reflect.Array {
			open, end = "[", "]"
		}
		return open + strings.Join(parts, " ") + end
	}
	return "?"
}

func plainType(typ reflect.Type, depth int) bool {
	if depth > 4 {
		return false
	}
	switch typ.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	case reflect.Array:
		return typ.Len() <= 8 && plainType(typ.Elem(), depth+1)
	case reflect.Struct:
		if atomicType(typ) || typ.NumField() > 8 {
			return false
		}
		for i := 0; i < typ.NumField(); i++ {
			if !plainType(typ.Field(i).Type, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
