package cliutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// InputError is an output that names one of the command's inputs: writing it would destroy
// the data being read.
type InputError struct {
	Output, Input string // as the user gave them
}

func (e *InputError) Error() string {
	if e.Output == e.Input {
		return fmt.Sprintf("%s is both an input and the output: refusing to write over an input", e.Output)
	}
	return fmt.Sprintf("%s is the same file as the input %s: refusing to write over an input", e.Output, e.Input)
}

// NotAnInput returns an *InputError when out is, or will be written through to, the same
// file as one of inputs: the same name, a symbolic link to it (either way round), or a hard
// link. Only regular files are compared: a terminal or /dev/stdout named both ways loses
// nothing. An out that does not exist yet names no input. Empty names and "-" (standard
// input or output) are skipped. Errors reading an input are left to the command that opens it.
func NotAnInput(out string, inputs ...string) error {
	if out == "" || out == "-" {
		return nil
	}
	target, err := followLinks(out)
	if err != nil {
		return err
	}
	ost, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !ost.Mode().IsRegular()) {
		return nil
	}
	if err != nil {
		return err
	}
	return sameAsInput(ost, out, inputs)
}

// sameAsInput returns an *InputError naming out when ost, a regular file's, is the file of
// one of inputs ("" and "-" skipped).
func sameAsInput(ost fs.FileInfo, out string, inputs []string) error {
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if ist, err := os.Stat(in); err == nil && os.SameFile(ost, ist) {
			return &InputError{Output: out, Input: in}
		}
	}
	return nil
}

// ReportNotAnInput returns an *InputError when a file that a report written into dir
// (pkg/report: index.html and PNG plots) would replace is one of inputs.
func ReportNotAnInput(dir string, inputs ...string) error {
	outs := []string{filepath.Join(dir, "index.html")}
	pngs, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	for _, out := range append(outs, pngs...) {
		if err := NotAnInput(out, inputs...); err != nil {
			return err
		}
	}
	return nil
}

// OpenNotAnInput is NotAnInput for an output already open, named name in messages:
// standard output redirected to a file (pdn convert a.pdn >> a.pdn would read its own
// output for ever). Only a regular file is compared.
func OpenNotAnInput(out *os.File, name string, inputs ...string) error {
	ost, err := out.Stat()
	if err != nil || !ost.Mode().IsRegular() {
		return nil
	}
	return sameAsInput(ost, name, inputs)
}
