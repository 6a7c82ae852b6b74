package scenarioset

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// testExplore is the start of a TestExplore function.
var testExplore = regexp.MustCompile(`(?m)^func (TestExplore\w*)\(`)

// Find returns the TestExplore functions of every package of the module
// rooted at root, by ./-relative package directory. It reads every test
// file go list names for a package, those its build constraints exclude
// included (the scenarios are built only with -tags explore).
func Find(root string) (map[string][]string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	const format = `{{.Dir}}{{range .TestGoFiles}}	{{.}}{{end}}{{range .XTestGoFiles}}	{{.}}{{end}}{{range .IgnoredGoFiles}}	{{.}}{{end}}`
	cmd := exec.Command("go", "list", "-e", "-f", format, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	found := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		dir, files, _ := strings.Cut(line, "\t")
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return nil, err
		}
		for _, f := range strings.Split(files, "\t") {
			if !strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				return nil, err
			}
			for _, m := range testExplore.FindAllStringSubmatch(string(src), -1) {
				key := "./" + filepath.ToSlash(rel)
				found[key] = append(found[key], m[1])
			}
		}
	}
	return found, nil
}
