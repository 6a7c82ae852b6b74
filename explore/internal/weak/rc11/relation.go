package rc11

// relation is a binary relation on the events of one execution, as a matrix.
type relation [][]bool

func newRel(n int) relation {
	r := make(relation, n)
	for i := range r {
		r[i] = make([]bool, n)
	}
	return r
}

func (r relation) union(ss ...relation) relation {
	out := newRel(len(r))
	for i := range r {
		for j := range r {
			out[i][j] = r[i][j]
			for _, s := range ss {
				out[i][j] = out[i][j] || s[i][j]
			}
		}
	}
	return out
}

// seq is the composition r;s.
func (r relation) seq(s relation) relation {
	out := newRel(len(r))
	for i := range r {
		for k := range r {
			if !r[i][k] {
				continue
			}
			for j := range r {
				if s[k][j] {
					out[i][j] = true
				}
			}
		}
	}
	return out
}

// plus is the transitive closure r⁺ (Warshall).
func (r relation) plus() relation {
	out := r.union()
	for k := range out {
		for i := range out {
			if !out[i][k] {
				continue
			}
			for j := range out {
				if out[k][j] {
					out[i][j] = true
				}
			}
		}
	}
	return out
}

// opt is r? (r with the identity).
func (r relation) opt() relation {
	out := r.union()
	for i := range out {
		out[i][i] = true
	}
	return out
}

// inverse is r⁻¹.
func (r relation) inverse() relation {
	out := newRel(len(r))
	for i := range r {
		for j := range r {
			out[j][i] = r[i][j]
		}
	}
	return out
}

// restrict keeps the pairs (a, b) with ok(a, b).
func (r relation) restrict(ok func(a, b int) bool) relation {
	out := newRel(len(r))
	for i := range r {
		for j := range r {
			out[i][j] = r[i][j] && ok(i, j)
		}
	}
	return out
}

// id is the identity on the events with ok: herd's [S].
func id(n int, ok func(int) bool) relation {
	out := newRel(n)
	for i := range out {
		out[i][i] = ok(i)
	}
	return out
}

func (r relation) irreflexive() bool {
	for i := range r {
		if r[i][i] {
			return false
		}
	}
	return true
}

func (r relation) acyclic() bool { return r.plus().irreflexive() }

func (r relation) empty() bool {
	for i := range r {
		for j := range r {
			if r[i][j] {
				return false
			}
		}
	}
	return true
}
