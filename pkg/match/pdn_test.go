package match

import (
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestWritePDNGameType: the GameType tag names the variant, and a variant without a PDN
// number (killer) gets none, not "0", which is chess.
func TestWritePDNGameType(t *testing.T) {
	for name, want := range map[string]string{"international": `[GameType "20"]`, "breakthrough": `[GameType "96"]`, "killer": ""} {
		var b strings.Builder
		rec := &Record{White: "a", Black: "b", Moves: []string{"32-28"}, Reason: "max-plies", Date: "2026.01.01"}
		if err := WritePDN(&b, engine.MustLookup(name), rec, "e", "s"); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "GameType"); got != (want != "") || want != "" && !strings.Contains(b.String(), want) {
			t.Errorf("%s: WritePDN wrote\n%s\nwant the tag %q", name, b.String(), want)
		}
	}
}
