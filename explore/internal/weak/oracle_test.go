package weak_test

import (
	"maps"
	"slices"

	"github.com/wsched/wsched/explore/internal/weak"
	"github.com/wsched/wsched/explore/internal/weak/rc11"
)

// The litmus tests as programs of the RC11 oracle (explore/internal/weak/rc11),
// which enumerates their consistent executions from RC11's axioms,
// independently of the model.

func toProgram(lt litmus) rc11.Program {
	p := rc11.Program{Final: lt.final}
	for _, th := range lt.threads {
		var ops []rc11.Op
		for _, o := range th {
			ops = append(ops, toOp(o))
		}
		p.Threads = append(p.Threads, ops)
	}
	return p
}

func toOp(o op) rc11.Op {
	kind := map[opKind]rc11.Kind{
		opLoad: rc11.Load, opStore: rc11.Store, opAdd: rc11.Add, opCAS: rc11.CAS,
		opFence: rc11.Fence, opRead: rc11.Read, opWrite: rc11.Write,
	}[o.kind]
	return rc11.Op{
		Kind: kind, Loc: o.loc, Reg: o.reg, Val: o.val, New: o.new, ValReg: o.valReg,
		Ord: toOrdering(o.ord), Fail: toOrdering(o.fail), IfReg: o.ifReg, IfVal: o.ifVal,
	}
}

func toOrdering(o weak.Ordering) rc11.Ordering {
	return map[weak.Ordering]rc11.Ordering{
		weak.Relaxed: rc11.Relaxed, weak.Acquire: rc11.Acquire, weak.Release: rc11.Release,
		weak.AcqRel: rc11.AcqRel, weak.SeqCst: rc11.SeqCst,
	}[o]
}

// oracle returns the outcomes RC11 allows for lt, and the number of
// consistent executions.
func oracle(lt litmus) (map[string]bool, int) {
	r := rc11.Allowed(toProgram(lt))
	return setOf(slices.Collect(maps.Keys(r.Outcomes))), r.Executions
}

// compare returns the outcomes the model produced that RC11 forbids
// (unsound) and those RC11 allows that it did not produce (missing).
func compare(seen, allowed map[string]bool) (unsound, missing []string) {
	for o := range seen {
		if !allowed[o] {
			unsound = append(unsound, o)
		}
	}
	for o := range allowed {
		if !seen[o] {
			missing = append(missing, o)
		}
	}
	slices.Sort(unsound)
	slices.Sort(missing)
	return unsound, missing
}
