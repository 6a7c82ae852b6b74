package weak_test

// Litmus tests from GenMC's suite (github.com/MPI-SWS/genmc v0.11.0,
// tests/correct/litmus), transcribed from their C files (unnamed loads
// given a register; atomic_store, atomic_load and fetch_add without
// _explicit, and assignments to an atomic_int, are seq_cst). Their allowed
// sets are the oracle's; explore/internal/weak/rc11's tests check its execution
// counts on the same programs against GenMC's. The 2+2W tests, which read
// nothing, have the final values as their outcome.
var genmcLitmus = []litmus{
	{
		name:    "2+2W+rel",
		threads: [][]op{{st("x", 1, rel), st("y", 2, rel)}, {st("y", 1, rel), st("x", 2, rel)}},
		final:   []string{"x", "y"},
		source:  "GenMC tests/correct/litmus/2+2W",
	},
	{
		name:    "2+2W+2sc+scf",
		threads: [][]op{{st("x", 1, sc), st("y", 2, sc)}, {st("y", 1, rlx), fence(sc), st("x", 2, rlx)}},
		final:   []string{"x", "y"},
		source:  "GenMC tests/correct/litmus/2+2W+2sc+scf",
	},
	{
		name:    "2+2W+3sc+rel1",
		threads: [][]op{{st("x", 1, sc), st("y", 2, sc)}, {st("y", 1, rel), st("x", 2, sc)}},
		final:   []string{"x", "y"},
		source:  "GenMC tests/correct/litmus/2+2W+3sc+rel1",
	},
	{
		name:    "2+2W+3sc+rel2",
		threads: [][]op{{st("x", 1, sc), st("y", 2, sc)}, {st("y", 1, sc), st("x", 2, rel)}},
		final:   []string{"x", "y"},
		source:  "GenMC tests/correct/litmus/2+2W+3sc+rel2",
	},
	{
		name:    "2+2W+4sc",
		threads: [][]op{{st("x", 1, sc), st("y", 2, sc)}, {st("y", 1, sc), st("x", 2, sc)}},
		final:   []string{"x", "y"},
		source:  "GenMC tests/correct/litmus/2+2W+4sc",
	},
	{
		name:    "2+2W+scfs",
		threads: [][]op{{st("x", 1, rlx), fence(sc), st("y", 2, rlx)}, {st("y", 1, rlx), fence(sc), st("x", 2, rlx)}},
		final:   []string{"x", "y"},
		source:  "GenMC tests/correct/litmus/2+2W+scfs",
	},
	{
		name:    "S",
		threads: [][]op{{st("x", 2, rlx), st("y", 1, rlx)}, {ld("a", "y", rlx), st("x", 1, rlx)}},
		final:   []string{"x"},
		source:  "GenMC tests/correct/litmus/S",
	},
	{
		name:    "SB",
		threads: [][]op{{st("x", 1, rel), ld("a", "y", acq)}, {st("y", 1, rel), ld("b", "x", acq)}},
		source:  "GenMC tests/correct/litmus/SB",
	},
	{
		name:    "SB+2sc+scf",
		threads: [][]op{{st("x", 1, sc), ld("a", "y", sc)}, {st("y", 1, rlx), fence(sc), ld("b", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/SB+2sc+scf",
	},
	{
		name:    "SB+3sc+acq",
		threads: [][]op{{st("x", 1, sc), ld("a", "y", sc)}, {st("y", 1, sc), ld("b", "x", acq)}},
		source:  "GenMC tests/correct/litmus/SB+3sc+acq",
	},
	{
		name:    "SB+3sc+rel",
		threads: [][]op{{st("x", 1, sc), ld("a", "y", sc)}, {st("y", 1, rel), ld("b", "x", sc)}},
		source:  "GenMC tests/correct/litmus/SB+3sc+rel",
	},
	{
		name:    "SB+4sc",
		threads: [][]op{{st("x", 1, sc), ld("a", "y", sc)}, {st("y", 1, sc), ld("b", "x", sc)}},
		source:  "GenMC tests/correct/litmus/SB+4sc",
	},
	{
		name:    "SB+scfs",
		threads: [][]op{{st("x", 1, rlx), fence(sc), ld("a", "y", rlx)}, {st("y", 1, rlx), fence(sc), ld("b", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/SB+scfs",
	},
	{
		name:    "SB+rfis",
		threads: [][]op{{st("x", 1, rel), ld("a", "x", sc), ld("b", "y", sc)}, {st("y", 1, rel), ld("c", "y", sc), ld("d", "x", sc)}},
		source:  "GenMC tests/correct/litmus/SB+rfis",
	},
	{
		name:    "RWC+syncs",
		threads: [][]op{{st("x", 1, rlx)}, {ld("a", "x", rlx), fence(sc), ld("b", "y", rlx)}, {st("y", 1, rlx), fence(sc), ld("c", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/RWC+syncs",
	},
	{
		name:    "W+RWC",
		threads: [][]op{{st("x", 1, rlx), st("z", 1, rel)}, {ld("a", "z", acq), fence(sc), ld("b", "y", rlx)}, {st("y", 1, rlx), fence(sc), ld("c", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/W+RWC",
	},
	{
		name:    "Z6+acq",
		threads: [][]op{{st("a", 1, rlx), fence(sc), st("b", 1, rlx)}, {ld("r", "b", acq), st("c", 1, rlx)}, {st("c", 2, rlx), fence(sc), ld("s", "a", rlx)}},
		source:  "GenMC tests/correct/litmus/Z6+acq",
	},
	{
		name:    "Z6.U",
		threads: [][]op{{st("x", 1, sc), st("y", 1, rel)}, {add("a", "y", 1, sc), ld("b", "y", rlx)}, {st("y", 3, sc), ld("c", "x", sc)}},
		source:  "GenMC tests/correct/litmus/Z6.U",
	},
	{
		name:    "IRIW-acq-sc",
		threads: [][]op{{st("x", 1, sc)}, {ld("a", "x", acq), ld("b", "y", sc)}, {ld("c", "y", acq), ld("d", "x", sc)}, {st("y", 1, sc)}},
		source:  "GenMC tests/correct/litmus/IRIW-acq-sc",
	},
	{
		name:    "WWmerge1",
		threads: [][]op{{ld("a", "x", acq), ld("b", "y", sc)}, {st("x", 1, sc), st("x", 2, sc)}, {st("y", 1, sc), ld("c", "x", sc)}},
		source:  "GenMC tests/correct/litmus/WWmerge1",
	},
	{
		name:    "WWmerge2",
		threads: [][]op{{ld("a", "x", acq), ld("b", "y", sc)}, {st("x", 2, sc)}, {st("y", 1, sc), ld("c", "x", sc)}},
		source:  "GenMC tests/correct/litmus/WWmerge2",
	},
	{
		name:    "MP",
		threads: [][]op{{st("x", 1, rel), st("y", 1, rel)}, {ld("a", "y", acq), ld("b", "x", acq)}},
		source:  "GenMC tests/correct/litmus/MP",
	},
	{
		name:    "MP2",
		threads: [][]op{{st("a", 1, rlx), st("c", 1, rlx), fence(ar), st("b", 1, rlx), st("d", 1, rlx)}, {ld("r", "b", rlx), fence(ar), ld("s", "a", rlx)}, {ld("t", "d", rlx), fence(ar), ld("u", "c", rlx)}},
		source:  "GenMC tests/correct/litmus/MP2",
	},
	{
		name:    "CoRR",
		threads: [][]op{{st("x", 1, rel), st("x", 2, rel)}, {ld("a", "x", acq), ld("b", "x", acq)}},
		source:  "GenMC tests/correct/litmus/CoRR",
	},
	{
		name:    "CoRR0",
		threads: [][]op{{st("x", 1, rel)}, {ld("a", "x", acq)}, {ld("b", "x", acq)}},
		source:  "GenMC tests/correct/litmus/CoRR0",
	},
	{
		name:    "CoRR1",
		threads: [][]op{{st("x", 1, rel)}, {st("x", 2, rel)}, {ld("a", "x", acq), ld("b", "x", acq)}, {ld("c", "x", acq)}},
		source:  "GenMC tests/correct/litmus/CoRR1",
	},
	{
		name:    "CoRR2",
		threads: [][]op{{st("x", 1, rel)}, {st("x", 2, rel)}, {ld("a", "x", acq), ld("b", "x", acq)}, {ld("c", "x", acq), ld("d", "x", acq)}},
		source:  "GenMC tests/correct/litmus/CoRR2",
	},
	{
		name:    "CoRW",
		threads: [][]op{{ld("a", "x", acq), st("x", 1, rel)}, {st("x", 2, rel)}},
		source:  "GenMC tests/correct/litmus/CoRW",
	},
	{
		name:    "CoWR",
		threads: [][]op{{st("x", 1, rel), ld("a", "x", acq)}, {st("x", 2, rel)}},
		source:  "GenMC tests/correct/litmus/CoWR",
	},
	{
		name:    "2CoWR",
		threads: [][]op{{ld("a", "y", acq)}, {ld("b", "x", acq)}, {st("x", 1, rel)}, {st("y", 1, rel)}},
		source:  "GenMC tests/correct/litmus/2CoWR",
	},
	{
		name:    "IRIWish",
		threads: [][]op{{st("x", 1, rlx)}, {ld("r", "x", rlx), stReg("y", "r", rel)}, {ld("s", "x", rlx), fence(ar), ld("t", "y", rlx)}, {ld("u", "y", rlx), fence(ar), ld("v", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/IRIWish",
	},
	{
		name:    "inc2w",
		threads: [][]op{{add("a", "x", 1, rlx)}, {st("x", 4, rel)}, {add("b", "x", 2, rlx)}},
		source:  "GenMC tests/correct/litmus/inc2w",
	},
	{
		name:    "rii",
		threads: [][]op{{ld("a", "x", rlx), add("b", "x", 1, rlx)}, {add("c", "x", 1, rlx)}},
		source:  "GenMC tests/correct/litmus/rii",
	},
	{
		name:    "riwi",
		threads: [][]op{{ld("a", "y", rlx), add("b", "x", 1, rlx)}, {add("c", "x", 1, rlx), st("y", 1, rel)}},
		source:  "GenMC tests/correct/litmus/riwi",
	},
	{
		name:    "wcii",
		threads: [][]op{{st("x", 5, rel)}, {cas("a", "x", 1, 2, rlx, rlx)}, {add("b", "x", 1, rlx)}, {add("c", "x", 1, rlx)}},
		source:  "GenMC tests/correct/litmus/wcii",
	},
	{
		name:    "cii",
		threads: [][]op{{cas("a", "x", 1, 2, rlx, rlx)}, {add("b", "x", 1, rlx)}, {add("c", "x", 1, rlx)}},
		source:  "GenMC tests/correct/litmus/cii",
	},
	{
		name:    "isa2",
		threads: [][]op{{st("a", 1, rlx), st("b", 1, rel)}, {ld("r", "b", acq), st("c", 1, rel)}, {ld("s", "c", acq), ld("t", "a", rlx)}},
		source:  "GenMC tests/correct/litmus/isa2",
	},
	{
		name:    "ori",
		threads: [][]op{{add("a", "x", 1, rlx), st("y", 1, rel)}, {cas("b", "x", 0, 1, acq, acq)}, {ld("c", "y", rlx), st("x", 4, rel).when("c", 1)}},
		source:  "GenMC tests/correct/litmus/ori",
	},
	{
		name:    "small0",
		threads: [][]op{{ld("a", "x", acq)}, {ld("b", "x", acq), st("x", 1, rel)}, {st("x", 2, rel)}},
		source:  "GenMC tests/correct/litmus/small0",
	},
	{
		name:    "small1",
		threads: [][]op{{ld("a", "y", acq), ld("b", "z", acq), ld("c", "x", acq)}, {st("x", 1, rel)}, {st("y", 1, rel), st("z", 1, rel)}},
		source:  "GenMC tests/correct/litmus/small1",
	},
	{
		name:    "po-loc",
		threads: [][]op{{ld("a", "y", rlx), fence(ar), ld("b", "x", rlx), st("x", 1, rlx)}, {ld("c", "x", rlx), stReg("y", "c", rlx)}},
		source:  "GenMC tests/correct/litmus/po-loc",
	},
	{
		name:    "LB",
		threads: [][]op{{ld("a", "x", rlx), st("y", 1, rlx)}, {ld("b", "y", rlx), st("x", 1, rlx)}},
		source:  "GenMC tests/correct/litmus/LB",
	},
	{
		name:    "LB3",
		threads: [][]op{{ld("r", "a", rlx), st("b", 1, rlx)}, {ld("s", "b", rlx), st("c", 1, rlx)}, {ld("t", "c", rlx), st("a", 1, rlx)}},
		source:  "GenMC tests/correct/litmus/LB3",
	},
	{
		name:    "MP+incMP",
		threads: [][]op{{ld("a", "y", acq), add("b", "z", 1, ar)}, {add("c", "z", 1, ar), ld("d", "x", acq)}, {st("x", 1, rel), st("y", 1, rel)}},
		source:  "GenMC tests/correct/litmus/MP+incMP",
	},
	{
		name:    "MCP-rrw",
		threads: [][]op{{st("x", 1, rel)}, {st("x", 2, rel)}, {ld("a", "x", acq)}},
		source:  "GenMC tests/correct/litmus/MCP-rrw",
	},
	{
		name:    "fr+w+w+w+reads",
		threads: [][]op{{st("x", 1, rlx)}, {st("x", 2, rlx)}, {st("x", 3, rlx)}, {ld("a", "x", rlx), ld("b", "x", rlx), ld("c", "x", rlx), ld("d", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/fr+w+w+w+reads",
	},
	{
		name:    "inc+inc+RR+W+RR",
		threads: [][]op{{add("r", "x", 1, rlx)}, {add("s", "x", 1, rlx)}, {ld("a", "x", rlx), ld("b", "x", rlx)}, {st("x", 42, rlx)}, {ld("c", "x", rlx), ld("d", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/inc+inc+RR+W+RR",
	},
	{
		name:    "rinc+wr",
		threads: [][]op{{add("a", "x", 1, rlx)}, {st("x", 2, rlx), ld("b", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/rinc+wr",
	},
	{
		name:    "JLT",
		threads: [][]op{{st("x", 1, rel), ld("a", "y", acq), ld("b", "x", acq)}, {st("x", 2, rel), ld("c", "x", acq)}, {st("y", 3, rel)}},
		source:  "GenMC tests/correct/litmus/JLT",
	},
	{
		name:    "default",
		threads: [][]op{{ld("a", "x", acq), ld("b", "x", acq)}, {st("x", 1, rel)}, {st("x", 2, rel)}},
		source:  "GenMC tests/correct/litmus/default",
	},
	{
		name:    "W+RRR+W",
		threads: [][]op{{st("x", 1, rlx)}, {ld("a", "x", rlx), ld("b", "x", rlx), ld("c", "x", rlx)}, {st("x", 2, rlx)}},
		source:  "GenMC tests/correct/litmus/W+RRR+W",
	},
	{
		name:    "relseq",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rel), st("y", 2, rlx)}, {add("a", "y", 0, rlx)}, {ld("b", "y", rlx), fence(ar), ld("c", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/relseq",
	},
	{
		name:    "rel-B-cumul-acq",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rel)}, {ld("a", "y", rlx), stReg("z", "a", rlx)}, {ld("b", "z", rlx), fence(ar), ld("c", "x", rlx)}, {ld("d", "y", acq)}},
		source:  "GenMC tests/correct/litmus/rel-B-cumul-acq",
	},
	{
		name:    "cumul-release",
		threads: [][]op{{st("x", 1, rlx), st("y", 1, rel)}, {ld("a", "y", rlx), stReg("z", "a", rlx)}, {ld("b", "z", rlx), fence(ar), ld("c", "x", rlx)}},
		source:  "GenMC tests/correct/litmus/cumul-release",
	},
	{
		name:    "MP+rel+acq",
		threads: [][]op{{wr("d"), st("y", 1, rel)}, {ld("a", "y", acq), rd("d").when("a", 1)}},
		source:  "GenMC tests/correct/litmus/MP+rel+acq",
	},
	{
		name:    "S+rel+acq",
		threads: [][]op{{wr("d"), st("y", 1, rel)}, {ld("a", "y", acq), wr("d").when("a", 1)}},
		source:  "GenMC tests/correct/litmus/S+rel+acq",
	},
	{
		name:    "psc-ar",
		threads: [][]op{{ld("a", "y", rlx), fence(sc), ld("b", "z", rlx)}, {st("z", 1, rlx), fence(sc), st("x", 1, rlx)}, {ld("d", "x", rlx), st("y", 1, rlx).when("d", 1)}},
		source:  "GenMC tests/correct/litmus/psc-ar",
	},
	{
		name:    "viktor-relseq",
		threads: [][]op{{add("a", "l", 1, acq), add("b", "l", 1, rlx)}, {add("c", "l", 1, rlx), add("d", "l", 1, rlx)}, {add("e", "l", 1, rel)}, {add("f", "l", 1, rlx)}},
		source:  "GenMC tests/correct/litmus/viktor-relseq",
	},
}

func init() { litmusTests = append(litmusTests, genmcLitmus...) }
