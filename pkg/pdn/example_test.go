package pdn_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rafle/rafle/pkg/pdn"
)

func ExampleReader() {
	in := `[Event "Example"]
1. 32-28 19-23 2. 28x19 14x23 {ok} 1-1

[Event "No terminator"]
1. 33-28 18-23
`
	r := pdn.NewReader(strings.NewReader(in))
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
		}
		fmt.Println(g.Get("Event"), g.Plies(), g.Result, len(g.Warnings))
	}
	// Output:
	// Example 4 1-1 0
	// No terminator 2 * 1
}

func ExampleWriter() {
	r := pdn.NewReader(strings.NewReader("[Event \"E\"] 01. 32-28 19-23(!) {c} 2-0"))
	g, _ := r.Next()
	w := pdn.NewWriter(os.Stdout)
	w.Write(g)
	w.Flush()
	// Output:
	// [Event "E"]
	//
	// 1. 32-28 19-23(!) {c} 2-0
}
