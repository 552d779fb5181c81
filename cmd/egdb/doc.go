// Command egdb builds, probes, describes and verifies endgame databases: the exact value
// and distance of every position with few pieces, for every variant rafle plays
// (docs/egdb.md).
package main
