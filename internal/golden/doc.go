// Package golden compares test output with files kept in testdata; `go test -update`
// rewrites the files instead. Only tests import it.
package golden
