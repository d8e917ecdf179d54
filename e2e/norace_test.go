//go:build !race

package e2e

// raceBuild is true when this test binary is built with -race; see
// race_test.go.
const raceBuild = false
