// Package procgroup starts external programs (engines) in a process group of their own and
// ends the whole group: a wrapper script's children die with it instead of being left to
// init. A program in its own group no longer receives the signals a terminal, timeout(1) or
// a shell sends to rafle's group (Ctrl-C), so the command that started it must end it on
// every exit path: Group.Terminate on the normal paths, KillAll when a second signal ends
// the command at once (cliutil.Main).
package procgroup
