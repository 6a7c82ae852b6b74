package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wsched/wsched/explore/internal/weak"
)

// The replay token: what a schedule decided, and under what it decided it.
//
//	sc/17:g2,40:g1
//	weak;stale=2;history=7/37:s1,39:s1,45:g1
//
// Before the slash, the memory mode and every parameter that changes which
// decisions a run meets or what their choices mean: "sc" (sequential
// consistency), or "weak" with its stale-read bound and history length
// (Options.MaxStale, Options.History, defaults filled in). After it, the
// decisions whose choice differs from the default one, as
// decision:kind-choice, or "-" when every decision took its default. The
// kinds are letters:
//
//	g  which goroutine performs the next operation (its number)
//	s  which store a weak-mode read reads (0 the latest, 1 the one before...)
//
// A new kind of decision takes a new letter, and a new parameter a new
// key=value after the mode; a replay that meets a letter or a key it does
// not know fails, never guesses. A choice without a letter is a goroutine
// (the tokens of before the mode was recorded). Replaying checks the token
// against the run at every step: the mode and parameters first, then at
// each listed decision its kind and whether the choice is one the run
// offers there, and at the end that every listed decision was reached. A
// mismatch fails the replay as "replay diverged at step N: ...", never
// passes it (replay.go).

// Token is a parsed replay token.
type Token struct {
	Weak     bool
	MaxStale int // weak mode: the stale-read bound in force (defaults filled in)
	History  int // weak mode: stores kept per location
	// Choices maps a decision's number to its kind and choice.
	Choices map[int]Choice
}

// Choice is one listed decision of a token.
type Choice struct {
	Kind   byte // 'g' or 's' (decisionKind)
	Choice int
}

// Decision kinds, as token letters.
const (
	kindGoroutine = 'g'
	kindStore     = 's'
)

func kindName(k byte) string {
	switch k {
	case kindGoroutine:
		return "a choice of goroutine"
	case kindStore:
		return "a choice of the store a read reads"
	}
	return fmt.Sprintf("a decision of unknown kind %q", k)
}

// ModeOf is the token header of an exploration with opt (defaults filled
// in).
func ModeOf(opt Options) Token {
	if !opt.Weak {
		return Token{}
	}
	cfg := weak.New(weak.Config{History: opt.History, MaxStale: opt.MaxStale}).Config()
	return Token{Weak: true, MaxStale: cfg.MaxStale, History: cfg.History}
}

func (t Token) header() string {
	if !t.Weak {
		return "sc"
	}
	return fmt.Sprintf("weak;stale=%d;history=%d", t.MaxStale, t.History)
}

// describe says in words what the header says.
func (t Token) describe() string {
	if !t.Weak {
		return "sequentially consistent (build tags explore)"
	}
	return fmt.Sprintf("in the weak-memory mode with up to %d stale reads and %d stores kept per location (build tags explore,weak)", t.MaxStale, t.History)
}

// encodeToken writes the token of a run with opt that made decisions ds.
func encodeToken(opt Options, ds []decision) string {
	var b strings.Builder
	b.WriteString(ModeOf(opt).header())
	b.WriteByte('/')
	n := b.Len()
	for i := range ds {
		d := &ds[i]
		if d.chosen == d.defaultChoice() {
			continue
		}
		if b.Len() > n {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d:%c%d", i, d.kind, d.chosen)
	}
	if b.Len() == n {
		b.WriteByte('-')
	}
	return b.String()
}

// String writes t as a token.
func (t Token) String() string {
	var b strings.Builder
	b.WriteString(t.header())
	b.WriteByte('/')
	keys := make([]int, 0, len(t.Choices))
	for k := range t.Choices {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d:%c%d", k, t.Choices[k].Kind, t.Choices[k].Choice)
	}
	if len(keys) == 0 {
		b.WriteByte('-')
	}
	return b.String()
}

// ParseToken reads a replay token. A token without a mode (decisions
// only, "17:2,40:1") is read as a sequentially consistent one.
func ParseToken(tok string) (Token, error) {
	tok = strings.TrimSpace(tok)
	t := Token{Choices: map[int]Choice{}}
	bad := func(why string) (Token, error) {
		return Token{}, fmt.Errorf("explore: bad replay token %q: %s", tok, why)
	}
	head, body, ok := strings.Cut(tok, "/")
	if !ok {
		head, body = "sc", tok
	}
	fields := strings.Split(head, ";")
	switch fields[0] {
	case "sc":
		if len(fields) > 1 {
			return bad("the sequentially consistent mode takes no parameters")
		}
	case "weak":
		t.Weak = true
		seen := map[string]bool{}
		for _, f := range fields[1:] {
			k, v, ok := strings.Cut(f, "=")
			n, err := strconv.Atoi(v)
			if !ok || err != nil || n < 0 {
				return bad(fmt.Sprintf("parameter %q: want key=number", f))
			}
			switch k {
			case "stale":
				t.MaxStale = n
			case "history":
				t.History = n
			default:
				return bad(fmt.Sprintf("unknown parameter %q (this explorer knows stale and history)", k))
			}
			seen[k] = true
		}
		if !seen["stale"] || !seen["history"] {
			return bad("the weak mode needs both stale= and history=")
		}
	default:
		return bad(fmt.Sprintf("unknown mode %q (want sc or weak)", fields[0]))
	}
	if body == "-" || body == "" {
		return t, nil
	}
	for _, f := range strings.Split(body, ",") {
		a, c, ok := strings.Cut(f, ":")
		i, err1 := strconv.Atoi(a)
		kind := byte(kindGoroutine)
		if c != "" && (c[0] < '0' || c[0] > '9') {
			kind, c = c[0], c[1:]
		}
		g, err2 := strconv.Atoi(c)
		if !ok || err1 != nil || err2 != nil || i < 0 || g < 0 {
			return bad("want decision:kind-choice pairs separated by commas (17:g2), or -")
		}
		if kind != kindGoroutine && kind != kindStore {
			return bad(fmt.Sprintf("unknown decision kind %q at decision %d (this explorer knows g and s)", kind, i))
		}
		if kind == kindStore && !t.Weak {
			return bad(fmt.Sprintf("decision %d chooses a store, which only the weak mode does", i))
		}
		if _, dup := t.Choices[i]; dup {
			return bad(fmt.Sprintf("decision %d listed twice", i))
		}
		t.Choices[i] = Choice{Kind: kind, Choice: g}
	}
	return t, nil
}

// mustParseToken is ParseToken for tokens the explorer wrote itself.
func mustParseToken(tok string) Token {
	t, err := ParseToken(tok)
	if err != nil {
		panic(err)
	}
	return t
}
