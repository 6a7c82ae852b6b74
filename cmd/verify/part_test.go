package main

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func layerNames() []string {
	var names []string
	for _, l := range layers("") {
		names = append(names, l.name)
	}
	return names
}

// Every layer has its measured time, and nothing else does: a layer added
// without one would be dealt as a minute long.
func TestLongMinutesNamesEveryLayer(t *testing.T) {
	names := layerNames()
	for _, name := range names {
		if _, ok := longMinutes[name]; !ok {
			t.Errorf("layer %q has no time in longMinutes", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(longMinutes)) {
		if !slices.Contains(names, name) {
			t.Errorf("longMinutes names %q, which is no layer", name)
		}
	}
}

// The parts of -long run every layer once between them (build in each),
// each part's in the run's order, the parts within one layer of each
// other, the same deal every time it is computed.
func TestDealLayersRunsEachLayerOnce(t *testing.T) {
	names := layerNames()
	for n := 1; n <= 6; n++ {
		parts, minutes := dealLayers(names, n)
		if len(parts) != n || len(minutes) != n {
			t.Fatalf("n=%d: %d parts, %d times", n, len(parts), len(minutes))
		}
		runs := map[string]int{}
		for k, ls := range parts {
			if !slices.Contains(ls, "build") {
				t.Errorf("n=%d: part %d does not build", n, k)
			}
			var order []int
			for _, l := range ls {
				runs[l]++
				order = append(order, slices.Index(names, l))
			}
			if !slices.IsSorted(order) {
				t.Errorf("n=%d: part %d runs %v, out of the run's order", n, k, ls)
			}
		}
		for _, name := range names {
			want := 1
			if name == "build" {
				want = n
			}
			if runs[name] != want {
				t.Errorf("n=%d: layer %s run by %d parts, want %d", n, name, runs[name], want)
			}
		}
		// The longest part ran past the shortest by at most the last
		// layer dealt to it, so by at most the longest layer.
		longest := slices.Max(slices.Collect(maps.Values(longMinutes)))
		if d := slices.Max(minutes) - slices.Min(minutes); d > longest {
			t.Errorf("n=%d: parts of %v minutes, %.1f apart", n, minutes, d)
		}
		again, _ := dealLayers(names, n)
		for k := range parts {
			if !slices.Equal(parts[k], again[k]) {
				t.Errorf("n=%d: part %d dealt %v, then %v", n, k, parts[k], again[k])
			}
		}
	}
	if parts, _ := dealLayers(names, 1); !slices.Equal(parts[0], names) {
		t.Errorf("one part runs %v, want every layer %v", parts[0], names)
	}
}

func TestParsePart(t *testing.T) {
	if p, err := parsePart("1/3", "-part", true, "", "", false); err != nil || p != (part{1, 3}) {
		t.Errorf("-long -part 1/3: %v, %v", p, err)
	}
	for _, c := range []struct {
		v, only, shard string
		long, mutants  bool
		want           string
	}{
		{v: "3/3", long: true, want: "0 <= k < n"},
		{v: "-1/2", long: true, want: "0 <= k < n"},
		{v: "1/0", long: true, want: "0 <= k < n"},
		{v: "01/2", long: true, want: "0 <= k < n"},
		{v: "1", long: true, want: "0 <= k < n"},
		{v: "0/2", want: "-long"},
		{v: "0/2", long: true, only: "unit", want: "-only"},
		{v: "0/2", long: true, shard: "0/2", want: "-shard"},
		{v: "0/2", long: true, mutants: true, want: "-mutants"},
	} {
		if _, err := parsePart(c.v, partEnv, c.long, c.only, c.shard, c.mutants); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), partEnv) {
			t.Errorf("%+v: error %v, want one that names %s and says %q", c, err, partEnv, c.want)
		}
	}
}

// What a part prints names the layers it runs and those the others do,
// so that its table is not read as the whole run's.
func TestPartLinesNameTheOtherParts(t *testing.T) {
	names := layerNames()
	mine, lines := partOf(part{1, 2}, names)
	parts, _ := dealLayers(names, 2)
	if !slices.Equal(mine, parts[1]) || len(lines) != 2 || !strings.Contains(lines[0], "part 1/2") || !strings.Contains(lines[0], strings.Join(parts[1], ", ")) ||
		!strings.Contains(lines[1], "not run here: part 0/2 runs "+strings.Join(parts[0], ", ")) {
		t.Errorf("part 1/2's lines:\n%s", strings.Join(lines, "\n"))
	}
}
