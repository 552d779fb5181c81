// Package leakcheck finds goroutines a test leaves running. Tests of the protocol packages
// (pkg/hub, pkg/dxp), which start readers, writers and processes, use it.
package leakcheck
