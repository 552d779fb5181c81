package cliutil

import (
	"fmt"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// OpenEGDB opens the endgame database of v in dir, the folder a command's --egdb flag
// names. It must hold at least every slice of 2 pieces: a folder without them is an error
// that says how to build them.
func OpenEGDB(dir string, v *engine.Variant) (*egdb.DB, error) {
	db, err := egdb.Open(dir, v, egdb.Options{})
	if err != nil {
		return nil, fmt.Errorf("--egdb %s: %w", dir, err)
	}
	if db.MaxPieces() < 2 {
		db.Close()
		return nil, fmt.Errorf("--egdb %s: no endgame database of %s there (every slice of 2 pieces at least: egdb build --variant %s --pieces N --dir %s)",
			dir, v.Name, v.Name, dir)
	}
	return db, nil
}
