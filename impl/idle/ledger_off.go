//go:build !explore

package idle

// claimLedger is empty outside the explore build (see ledger_explore.go).
type claimLedger struct{}

func (*claimLedger) begin() {}
func (*claimLedger) end()   {}
