package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/wsched/wsched/internal/orderings"
)

// SeedsFile holds, for the operations of impl/ that have a counterpart in
// the seeds, the ordering the seed names there (written by hand: the
// seeds are prose with code in it, not something to parse).
const SeedsFile = "docs/orderings-seeds.tsv"

// seedRow is one row of SeedsFile.
type seedRow struct {
	file, fn, code string
	ordering       string // as the seed names it
	where          string // seed file and function
	line           int    // in SeedsFile
}

// LoadSeeds reads SeedsFile under root.
func LoadSeeds(root string) ([]seedRow, error) {
	f, err := os.Open(filepath.Join(root, SeedsFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []seedRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := strings.Split(l, "\t")
		if len(c) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 tab-separated columns, got %d", SeedsFile, n, len(c))
		}
		rows = append(rows, seedRow{file: c[0], fn: c[1], code: c[2], ordering: c[3], where: c[4], line: n})
	}
	return rows, sc.Err()
}

// seedCells returns the seeds column of each operation ("" when the seeds
// name none), and the rows that match no operation (the code moved on).
// A row matches the operation of its file and function with its code; if
// none has that code, the one whose code differs only in the ordering its
// method names (LoadAcquire for LoadRelaxed: an ordering changed since the
// row was written), so a change of ordering leaves the seeds file valid
// and the page shows the seed's ordering next to the new one.
func seedCells(ops []orderings.Op, rows []seedRow) (cells []string, stale []seedRow) {
	cells = make([]string, len(ops))
	for _, r := range rows {
		found := false
		for i, o := range ops {
			if o.File == r.file && o.Func == r.fn && o.Code == r.code {
				cells[i] = fmt.Sprintf("%s (%s)", r.ordering, r.where)
				found = true
			}
		}
		if !found {
			for i, o := range ops {
				if o.File == r.file && o.Func == r.fn && sansOrdering(o.Code) == sansOrdering(r.code) && cells[i] == "" {
					cells[i] = fmt.Sprintf("%s (%s)", r.ordering, r.where)
					found = true
				}
			}
		}
		if !found {
			stale = append(stale, r)
		}
	}
	return cells, stale
}

// orderingSuffix is the ordering part of an explore/atomic method's name:
// LoadAcquire, CompareAndSwapSeqCstRelaxed, FenceRelease.
var orderingSuffix = regexp.MustCompile(`\b(Load|Store|Swap|Add|And|Or|CompareAndSwap|Fence)(?:Relaxed|Acquire|Release|AcqRel|SeqCst)+\(`)

func sansOrdering(code string) string { return orderingSuffix.ReplaceAllString(code, "$1(") }

// staleHelp says what to do about a stale row: the operations its
// function has now, one of which the row may have meant.
func staleHelp(ops []orderings.Op, r seedRow) string {
	var have []string
	for _, o := range ops {
		if o.File == r.file && o.Func == r.fn {
			have = append(have, o.Code)
		}
	}
	if len(have) == 0 {
		return fmt.Sprintf("%s has no function %s with an ordered operation now: update or delete the row", r.file, r.fn)
	}
	return fmt.Sprintf("update the row's code (column 3) to one of %s's operations now: %s, or delete the row", r.fn, strings.Join(have, "; "))
}
