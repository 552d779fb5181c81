package dxp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// specExamples are the example messages of the spec's pages
// (http://www.mesander.nl/damexchange/egamereq.htm, egameacc.htm, emove.htm, egameend.htm,
// echat.htm, ebackreq.htm, ebackacc.htm), with what the pages say they mean.
var specExamples = []struct {
	text string
	want Message
}{
	// "R01Tornado voor Windows 4.0        W060065A": the follower plays white, 60 minutes,
	// 65 moves, the normal starting position
	{"R01Tornado voor Windows 4.0        W060065A",
		GameReq{Version: 1, Initiator: "Tornado voor Windows 4.0", FollowerColor: engine.White,
			Time: 60 * time.Minute, Moves: 65}},
	// "Tornado accepts playing a game."
	{"ATornado voor Windows 4.0        0", GameAcc{Follower: "Tornado voor Windows 4.0", Code: AccAccept}},
	// "The program passes moves 6 - 11 respectivily 5 x 25 (pieces 23, 22, 12 and 20
	// captured)", each after 12 seconds
	{"M0012061100", Move{Seconds: 12, From: 6, To: 11}},
	{"M001205250422122320", Move{Seconds: 12, From: 5, To: 25, Captured: []engine.Square{22, 12, 23, 20}}},
	// "The program wants to terminate the current game, but is willing to play a next game."
	{"E00", GameEnd{Reason: EndUnknown}},
	{"CWhat do you think about move 35?", Chat{Text: "What do you think about move 35?"}},
	// back "to the position with black to move at the fifth move of the game"
	{"B005Z", BackReq{Move: 5, Side: engine.Black}},
	// the program has no take-back
	{"K1", BackAcc{Code: BackUnsupported}},
}

func TestSpecExamples(t *testing.T) {
	for _, tc := range specExamples {
		got, err := Parse([]byte(tc.text))
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.text, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", tc.text, got, tc.want)
		}
		if b := Format(tc.want); string(b) != tc.text {
			t.Errorf("Format(%#v) = %q, want %q", tc.want, b, tc.text)
		}
	}
}

// startSquares is the initial position as GAMEREQ writes it: black men ('z') on 1-20,
// empty ('e') 21-30, white men ('w') on 31-50, White to move.
var startSquares = "W" + strings.Repeat("z", 20) + strings.Repeat("e", 10) + strings.Repeat("w", 20)

func TestGameReqPosition(t *testing.T) {
	// the layout of egamereq.htm: 1+2+32+1+3+3+1 and, with 'B', 1+50 characters
	text := "R01rafle                           Z005000B" + startSquares
	if len(text) != 94 {
		t.Fatalf("test message has %d characters", len(text))
	}
	want := GameReq{Version: 1, Initiator: "rafle", FollowerColor: engine.Black, Time: 5 * time.Minute, Position: startSquares}
	got, err := Parse([]byte(text))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse(%q) = %#v, %v; want %#v", text, got, err, want)
	}
	if b := Format(want); string(b) != text {
		t.Errorf("Format = %q, want %q", b, text)
	}
}

func TestParseErrors(t *testing.T) {
	name := "Tornado voor Windows 4.0        " // 32 characters
	for _, tc := range []struct{ text, want string }{
		{"", "empty message"},
		{"X", `unknown message type 'X'`},
		{"m0012061100", `unknown message type 'm'`},
		{"C" + strings.Repeat("a", 127), "128 characters (at most 127)"},
		{"Caf\xe9", "byte 0xe9 at column 4 is not ASCII 1-127"},
		{"R01" + name + "W060065", "GAMEREQ: 42 characters"},
		{"R01" + name + "W060065AB", "GAMEREQ: 44 characters"},
		{"Rx1" + name + "W060065A", `GAMEREQ: version "x1" is not 2 digits`},
		{"R01" + name + "X060065A", `GAMEREQ: follower colour "X" is not W or Z`},
		{"R01" + name + "W6 0065A", `GAMEREQ: thinking time "6 0"`},
		{"R01" + name + "W..5065A", `GAMEREQ: thinking time "..5"`},
		{"R01" + name + "W06006xA", `GAMEREQ: number of moves "06x"`},
		{"R01" + name + "W060065C", `GAMEREQ: starting position "C" is not A or B`},
		{"R01" + name + "W060065A" + startSquares, "starting position 'A' with 51 characters after it"},
		{"R01" + name + "W060065B" + strings.Replace(startSquares, "e", "x", 1), "GAMEREQ: position"},
		{"A" + name, "GAMEACC: 33 characters, want 34"},
		{"A" + name + "4", `GAMEACC: acceptance code "4" is not 0-3`},
		{"M001206110", "MOVE: 10 characters, want at least 11"},
		{"M00120611001", "MOVE: 12 characters for 0 captured pieces, want 11"},
		{"M0012000100", `MOVE: from field "00" is not 01-50`},
		{"M0012065100", `MOVE: to field "51" is not 01-50`},
		{"M00120611210101010101010101010101010101010101", `MOVE: number captured "21" is not 00-20`},
		{"M0012052501", "MOVE: 11 characters for 1 captured pieces, want 13"},
		{"M00120525015a", `MOVE: captured field "5a"`},
		{"E0", "GAMEEND: 2 characters, want 3"},
		{"E40", `GAMEEND: reason "4" is not 0-3`},
		{"E02", `GAMEEND: stop code "2" is not 0-1`},
		{"B000W", `BACKREQ: move number "000" is not 001-999`},
		{"B005X", `BACKREQ: colour to move "X" is not W or Z`},
		{"B05W", "BACKREQ: 4 characters, want 5"},
		{"K3", `BACKACC: acceptance code "3" is not 0-2`},
		{"K", "BACKACC: 1 characters, want 2"},
	} {
		m, err := Parse([]byte(tc.text))
		if err == nil {
			t.Errorf("Parse(%q) = %#v, want an error", tc.text, m)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrProtocol) || e.Text != tc.text {
			t.Errorf("Parse(%q) error %#v: want an *Error of kind ErrProtocol with the text", tc.text, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", tc.text, err, tc.want)
		}
	}
}

func TestFormatSanitizes(t *testing.T) {
	long := strings.Repeat("n", 40)
	if got, want := string(Format(GameAcc{Follower: "  " + long, Code: AccRefuse})), "A"+long[:32]+"2"; got != want {
		t.Errorf("GAMEACC with a long name = %q, want %q", got, want)
	}
	if got, want := string(Format(Chat{Text: "café\x00"})), "Ccaf???"; got != want {
		t.Errorf("CHAT = %q, want %q", got, want)
	}
	if got := Format(Chat{Text: strings.Repeat("x", 200)}); len(got) != MaxLen {
		t.Errorf("a long CHAT is %d characters, want %d", len(got), MaxLen)
	}
	defer func() {
		if recover() == nil {
			t.Error("Format of a MOVE from square 51 did not panic")
		}
	}()
	Format(Move{From: 51, To: 46})
}

func TestMinutes(t *testing.T) {
	for _, tc := range []struct {
		text string
		d    time.Duration
	}{
		{"000", 0},
		{"001", time.Minute},
		{"999", 999 * time.Minute},
		{".17", 10200 * time.Millisecond}, // Moby Dam's matchmaker: "-t .17"
		{"2.5", 150 * time.Second},
		{".05", 3 * time.Second},
	} {
		if got := formatMinutes(tc.d); got != tc.text {
			t.Errorf("formatMinutes(%v) = %q, want %q", tc.d, got, tc.text)
		}
		p := parser{msg: []byte(tc.text)}
		if got := p.minutes(); got != tc.d || p.err != nil {
			t.Errorf("minutes(%q) = %v, %v; want %v", tc.text, got, p.err, tc.d)
		}
	}
	for _, tc := range []struct {
		text string
		d    time.Duration
	}{{"0.5", 30 * time.Second}, {"10.", 10 * time.Minute}, {"01.", time.Minute}} {
		p := parser{msg: []byte(tc.text)}
		if got := p.minutes(); got != tc.d || p.err != nil {
			t.Errorf("minutes(%q) = %v, %v; want %v", tc.text, got, p.err, tc.d)
		}
	}
	// times that are not hundredths of a minute are rounded to what fits 3 characters
	for d, want := range map[time.Duration]string{
		61 * time.Second:                 "001", // 1.0167 minutes: tenths round to 1.0
		75 * time.Second:                 "1.3", // 1.25 minutes
		10*time.Minute + 30*time.Second:  "011", // 10.5 minutes
		598 * time.Second:                "010", // 9.9667 minutes
		time.Minute/100*99 + time.Second: "001", // 1.0067 minutes
	} {
		if got := formatMinutes(d); got != want {
			t.Errorf("formatMinutes(%v) = %q, want %q", d, got, want)
		}
	}
}

// FuzzParse checks that Parse never panics, and that what it accepts Format writes as a
// valid message that Parse reads back the same.
func FuzzParse(f *testing.F) {
	for _, tc := range specExamples {
		f.Add([]byte(tc.text))
	}
	f.Add([]byte("R01rafle                           Z.17000B" + startSquares))
	f.Add([]byte("M0000473503384244"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("Parse(%q) error %v is not ErrProtocol", b, err)
			}
			return
		}
		out := Format(m)
		if len(out) == 0 || len(out) > MaxLen {
			t.Fatalf("Format(Parse(%q)) = %q: %d characters", b, out, len(out))
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Format(Parse(%q))) = %q: %v", b, out, err)
		}
		if !reflect.DeepEqual(again, m) {
			t.Fatalf("Parse(%q) = %#v, but after Format %q: %#v", b, m, out, again)
		}
	})
}
