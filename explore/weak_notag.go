//go:build !weak

package explore

// weakTag is false without the weak build tag (weak_tag.go).
const weakTag = false
