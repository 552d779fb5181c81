// Package testengines builds, for tests, the engines of its folders (hubfake, a Hub engine;
// dxpfake, a DXP engine) and any command of the module that a test runs as a process. A
// test binary builds each once, into one temporary folder that Main removes when the tests
// end, so that no run leaves binaries behind in the system's temporary folder.
package testengines
