package main

import (
	"os"
	"os/exec"
	"strings"
)

// listedPackage is one package go list -test names: a package, its test
// variant ("p [p.test]"), its external test ("p_test [p.test]") or its
// test binary ("p.test"), with every package it imports, directly or not.
type listedPackage struct {
	path string
	deps []string
}

// goListTest lists the packages matching patterns and their tests, run in
// dir ("" for the current directory). go list's errors go to stderr.
func goListTest(dir string, patterns ...string) ([]listedPackage, error) {
	args := append([]string{"list", "-test", "-f", "{{.ImportPath}}\t{{join .Deps \" \"}}"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var pkgs []listedPackage
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, deps, _ := strings.Cut(line, "\t")
		if path != "" {
			pkgs = append(pkgs, listedPackage{path: path, deps: strings.Fields(deps)})
		}
	}
	return pkgs, nil
}
