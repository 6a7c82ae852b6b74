package main

import (
	"fmt"
	"html"
	"math"
	"strings"
	"unicode"
)

// Layout of the chart, in SVG user units (pixels when shown at natural size).
const (
	barWidth    = 13
	barGap      = 2
	groupGap    = 26
	marginLeft  = 64
	marginRight = 16
	marginTop   = 44
	plotHeight  = 300
	labelHeight = 44 // room for two lines of workload name under the axis
	legendRow   = 18
	legendItem  = 118 // width of one legend entry
	fontFamily  = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif"
)

// palette is Tableau 10, which stays distinguishable for most color-vision deficiencies.
var palette = []string{
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
}

// svgChart draws grouped bars of ns/task (median, with the confidence interval as an error
// bar), one group per workload, one bar per peer, on a log scale. It is plain SVG with an
// opaque background, so it reads the same in a light or dark repository page.
func svgChart(groups []*group, runs int) string {
	// Colors by peer, in order of first appearance.
	color := map[string]string{}
	var peers []string
	for _, g := range groups {
		for _, r := range g.Rows {
			if _, ok := color[r.Peer]; !ok {
				color[r.Peer] = palette[len(peers)%len(palette)]
				peers = append(peers, r.Peer)
			}
		}
	}

	// Scale: whole decades around every median and finite interval bound.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, g := range groups {
		for _, r := range g.Rows {
			for _, v := range []float64{r.Ns.Center, r.Ns.Lo, r.Ns.Hi} {
				if v > 0 && !math.IsInf(v, 0) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 1, 10
	}
	decLo, decHi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if decHi <= decLo {
		decHi = decLo + 1
	}
	y := func(v float64) float64 {
		f := (math.Log10(v) - decLo) / (decHi - decLo)
		return marginTop + plotHeight*(1-f)
	}

	plotWidth := 0
	for _, g := range groups {
		plotWidth += len(g.Rows)*(barWidth+barGap) - barGap + groupGap
	}
	width := marginLeft + plotWidth + marginRight
	perRow := max(1, (width-marginLeft)/legendItem)
	legendRows := (len(peers) + perRow - 1) / perRow
	height := marginTop + plotHeight + labelHeight + legendRows*legendRow + 12

	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s" font-size="11">`+"\n",
		width, height, width, height, fontFamily)
	fmt.Fprintf(&sb, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	fmt.Fprintf(&sb, `<text x="%d" y="18" font-size="14" font-weight="bold" fill="#222">ns per task (lower is better, log scale)</text>`+"\n", marginLeft)
	fmt.Fprintf(&sb, `<text x="%d" y="34" fill="#555">median of %d run(s); whiskers: 95%% confidence interval of the median</text>`+"\n", marginLeft, runs)

	// Grid lines and labels at each decade, fainter lines at 2x and 5x.
	for d := decLo; d <= decHi; d++ {
		v := math.Pow(10, d)
		yy := y(v)
		fmt.Fprintf(&sb, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#bbb"/>`+"\n", marginLeft, marginLeft+plotWidth, yy, yy)
		fmt.Fprintf(&sb, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle" fill="#333">%s</text>`+"\n", marginLeft-6, yy, decadeLabel(v))
		if d < decHi {
			for _, m := range []float64{2, 5} {
				ym := y(m * v)
				fmt.Fprintf(&sb, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", marginLeft, marginLeft+plotWidth, ym, ym)
			}
		}
	}
	fmt.Fprintf(&sb, `<text transform="translate(14 %d) rotate(-90)" text-anchor="middle" fill="#333">ns/task</text>`+"\n", marginTop+plotHeight/2)

	// Bars.
	x := marginLeft + groupGap/2
	base := y(math.Pow(10, decLo))
	for _, g := range groups {
		gx := x
		for _, r := range g.Rows {
			top := y(r.Ns.Center)
			fmt.Fprintf(&sb, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s %s: %s ns/task</title></rect>`+"\n",
				x, top, barWidth, base-top, color[r.Peer], esc(g.Workload), esc(r.Peer), fmtNum(r.Ns.Center))
			if !math.IsInf(r.Ns.Lo, 0) && !math.IsInf(r.Ns.Hi, 0) && r.Ns.Hi > r.Ns.Lo && r.Ns.Lo > 0 {
				cx := float64(x) + barWidth/2.0
				y1, y2 := y(r.Ns.Lo), y(r.Ns.Hi)
				fmt.Fprintf(&sb, `<path d="M%.1f %.1fV%.1fM%.1f %.1fh6M%.1f %.1fh6" stroke="#222" fill="none"/>`+"\n",
					cx, y1, y2, cx-3, y1, cx-3, y2)
			}
			x += barWidth + barGap
		}
		x += groupGap - barGap
		mid := float64(gx+x-groupGap) / 2
		for i, line := range splitName(g.Workload) {
			fmt.Fprintf(&sb, `<text x="%.1f" y="%d" text-anchor="middle" fill="#222">%s</text>`+"\n",
				mid, marginTop+plotHeight+16+14*i, esc(line))
		}
	}
	fmt.Fprintf(&sb, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#333"/>`+"\n", marginLeft, marginLeft+plotWidth, base, base)

	// Legend.
	ly := marginTop + plotHeight + labelHeight + 6
	for i, p := range peers {
		lx := marginLeft + (i%perRow)*legendItem
		yy := ly + (i/perRow)*legendRow
		fmt.Fprintf(&sb, `<rect x="%d" y="%d" width="11" height="11" fill="%s"/>`+"\n", lx, yy, color[p])
		fmt.Fprintf(&sb, `<text x="%d" y="%d" fill="#222">%s</text>`+"\n", lx+16, yy+10, esc(p))
	}
	sb.WriteString("</svg>\n")
	return sb.String()
}

func decadeLabel(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%gk", v/1e3)
	default:
		return fmt.Sprintf("%g", v)
	}
}

// splitName breaks a CamelCase workload name into at most two lines of about equal length.
func splitName(name string) []string {
	var words []string
	start := 0
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			words = append(words, name[start:i])
			start = i
		}
	}
	words = append(words, name[start:])
	if len(name) <= 9 || len(words) < 2 {
		return []string{name}
	}
	best, bestDiff := 1, len(name)
	n := 0
	for i := 1; i < len(words); i++ {
		n += len(words[i-1])
		if d := abs(len(name) - 2*n); d < bestDiff {
			best, bestDiff = i, d
		}
	}
	return []string{strings.Join(words[:best], ""), strings.Join(words[best:], "")}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func esc(s string) string { return html.EscapeString(s) }
