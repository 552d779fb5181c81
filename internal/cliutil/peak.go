package cliutil

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// PeakMemoryEnv names the environment variable that makes Main write the command's peak
// memory (PeakMemory, in bytes, as a decimal number) to the file it names when the command
// ends: how the tests and the benchmarks measure a command's peak memory. The maximum
// resident set size that wait4 reports for a child does not do: on Linux a child started
// by Go inherits the high-water mark of its parent (Go starts children with
// CLONE_VFORK|CLONE_VM, and exec keeps the larger of the old and the new memory's marks).
const PeakMemoryEnv = "RAFLE_PEAK_MEMORY"

// PeakMemory returns the peak memory of this process's program: the high-water mark of its
// resident set (VmHWM in /proc/self/status), in bytes. ok is false where it cannot be read
// (not Linux).
func PeakMemory() (bytes int64, ok bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if rest, found := strings.CutPrefix(line, "VmHWM:"); found {
			fields := strings.Fields(rest) // "12345 kB"
			if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil && len(fields) == 2 && fields[1] == "kB" {
				return kb << 10, true
			}
		}
	}
	return 0, false
}

// writePeakMemory writes PeakMemory to the file PeakMemoryEnv names, if it names one.
func writePeakMemory() error {
	path := os.Getenv(PeakMemoryEnv)
	if path == "" {
		return nil
	}
	peak, ok := PeakMemory()
	if !ok {
		return nil // the file is left as it is: whoever reads it finds no figure
	}
	return os.WriteFile(path, []byte(strconv.FormatInt(peak, 10)+"\n"), 0o644)
}

// RunPeak runs cmd, a command whose main is Main, with PeakMemoryEnv set to a new empty
// file, and returns its peak memory in bytes; ok is false when the command wrote none (not
// Linux, or a command that does not write it). err is cmd's
// error: a command that fails still reports its peak.
func RunPeak(cmd *exec.Cmd) (peak int64, ok bool, err error) {
	f, err := os.CreateTemp("", "rafle-peak-*")
	if err != nil {
		return 0, false, err
	}
	f.Close()
	defer os.Remove(f.Name())
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, PeakMemoryEnv+"="+f.Name())
	err = cmd.Run()
	b, rerr := os.ReadFile(f.Name())
	if rerr != nil {
		return 0, false, errors.Join(err, rerr)
	}
	if peak, perr := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); perr == nil {
		return peak, true, err
	}
	return 0, false, err
}
