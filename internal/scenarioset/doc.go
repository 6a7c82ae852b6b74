// Package scenarioset lists the packages that hold the explorer's
// TestExplore scenarios, with the check layers that run them and the
// impl/ packages whose atomic orderings their weak-memory runs reach.
// cmd/verify builds its explore and weak layers and its mutant matrix from
// the list; cmd/orderaudit picks the packages it runs for each audited
// package from it.
//
// It is a list, not a runner: it does not import the explorer, and of the
// layers' -run patterns it holds only the weak layer's (WeakScenarios),
// which the weak build of explore/scenarios runs by default too; the
// others are cmd/verify's. Its test finds every package of the module with a TestExplore
// function and fails if one is missing from the list, or if a listed one
// has none.
package scenarioset
