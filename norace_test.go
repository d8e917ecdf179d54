//go:build !race

package main

// raceBuild is true when this test binary is built with -race; see
// race_test.go.
const raceBuild = false
