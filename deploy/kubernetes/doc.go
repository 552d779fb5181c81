// Package kubernetes holds the Kubernetes recipes for a match in shards (the manifests
// beside this file: match-job.yaml, merge-job.yaml, rerun-shard.yaml, pvc.yaml, and the
// Dockerfile) and their tests; it has no code of its own.
//
// The tests check the manifests with no cluster: each is decoded strictly into the
// Kubernetes API types (an unknown, misspelt or doubled field is an error, as with
// kubectl's strict field validation), the commands are checked against what selfplay
// reads (the shard count, the index variable, the files of each shard and of the merge),
// and the commands are run, with a short match, to show that the merge of the shards
// equals the match played by one process.
package kubernetes
