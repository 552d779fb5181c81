// Package cliutil holds what rafle's commands share: running an app with flags accepted
// anywhere before "--", a standard output whose write errors are not lost, the mapping of
// errors and signals to exit statuses, usage errors, output files written safely, and the
// progress bar that only a terminal gets. Only cmd/* import it.
package cliutil
