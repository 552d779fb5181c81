// Package testcorpus cuts the large files of the shared PDN corpus (../shared/pdn/corpus) to
// samples for the tests that read every file of it, so that `go test ./...` stays within
// minutes: the Open Checkers Archive alone is 11.5 MB of the corpus's 21, and some tests
// read each file a dozen ways. A sample is windows of whole games spread over the file
// (its start, middle and end included). With FullEnv set (RAFLE_FULL_CORPUS=1), Sample
// returns every file whole, as CI's corpus run does. Only tests import it.
package testcorpus
