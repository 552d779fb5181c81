package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/book"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/stats"
)

// Random openings are kept when a search of this depth scores them within this margin
// (hundredths of a man) for the side to move.
const (
	balanceDepth  = 4
	balanceMargin = 40
)

// maxRandomOpenings bounds the number of random openings generated for a match.
const maxRandomOpenings = 2000

func selfplay(c *cli.Context) (err error) {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	cfg, openingsDesc, engines, err := readConfig(c)
	if cfg.EGDB != nil {
		defer cfg.EGDB.Close()
	}
	if err != nil {
		return err
	}
	stderr := c.App.ErrWriter
	// the report's folder is reserved first: a second match on it stops before it starts
	dir, release, err := reportDir(c)
	if err != nil {
		return err
	}
	refused := true
	defer func() { release(refused) }() // a refused match leaves no folder it made
	used := map[string]bool{}
	for _, p := range cfg.Players {
		used[p.Name] = true
	}
	defer func() {
		if cerr := engines.close(); err == nil {
			err = cerr // the engines' log files
		}
	}()
	if err := engines.open(c.Context, c, cfg.Variant, used, stderr); err != nil {
		return err
	}
	for i, p := range cfg.Players {
		if e, ok := engines.entrants[p.Name]; ok {
			cfg.Players[i] = e
		}
	}
	fmt.Fprintf(stderr, "selfplay: seed %d\n", cfg.Seed)
	fmt.Fprintf(stderr, "selfplay: %s, %s, openings: %s\n", cfg.Variant.Name, strings.Join(names(cfg.Players), " vs "), openingsDesc)
	if cfg.EGDB != nil {
		fmt.Fprintf(stderr, "selfplay: endgame database %s: %s up to %d pieces\n", cfg.EGDB.Dir(), cfg.Variant.Name, cfg.EGDB.MaxPieces())
	}
	if cfg.Shard.Count > 1 {
		fmt.Fprintf(stderr, "selfplay: shard %s: the game pairs whose number is %d modulo %d, to %s; join the shards with selfplay merge\n",
			cfg.Shard, cfg.Shard.Index, cfg.Shard.Count, cmp.Or(cfg.PDNPath, cfg.JournalPath, "no file"))
	}
	if bar := progressBar(c, stderr); bar != nil {
		cfg.Progress = func(done, total int) {
			bar.ChangeMax(total)
			_ = bar.Set(done)
		}
		defer bar.Close()
	}
	res, runErr := match.Run(c.Context, cfg)
	refused = res == nil
	if res == nil {
		return runErr
	}
	if err := printResult(c, res); err != nil {
		return err
	}
	if runErr == nil && dir != "" {
		return matchReport(c, dir, &cfg, res)
	}
	if runErr != nil {
		if errors.Is(runErr, c.Context.Err()) && cfg.JournalPath != "" {
			return fmt.Errorf("interrupted after %d of %d games; run again with --resume to finish", res.Games, res.GamesPlanned)
		}
		return runErr
	}
	return nil
}

// printResult prints the tables, or JSON with --format json (checked by readConfig).
func printResult(c *cli.Context, res *match.Result) error {
	if asJSON, _ := cliutil.JSONOutput(c); asJSON {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return render(c.App.Writer, res)
}

// parseAnchor reads --anchor NAME=ELO: the index of the player named and the rating; the
// first player at 0 when a is empty.
func parseAnchor(a string, players []string) (int, float64, error) {
	if a == "" {
		return 0, 0, nil
	}
	k := strings.LastIndex(a, "=") // player specs contain '=' too
	name, elo, ok := a[:max(k, 0)], a[k+1:], k >= 0
	x, err := strconv.ParseFloat(elo, 64)
	idx := slices.Index(players, name)
	if !ok || err != nil || idx < 0 {
		return 0, 0, cliutil.Usagef("--anchor %q: want NAME=ELO with NAME one of %s", a, strings.Join(players, ", "))
	}
	return idx, x, nil
}

func names(es []match.Entrant) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

// readConfig reads and checks the flags; no game starts before it succeeds.
func readConfig(c *cli.Context) (cfg match.Config, desc string, engines *engineSet, err error) {
	if _, err := cliutil.JSONOutput(c); err != nil {
		return cfg, "", nil, err
	}
	v, err := engine.Lookup(c.String("variant"))
	if err != nil {
		return cfg, "", nil, cliutil.UsageError{Err: err}
	}
	cfg.Variant = v
	if cfg.EGDB, err = openEGDB(c, v); err != nil {
		return cfg, "", nil, err
	}
	specs := strings.Split(c.String("players"), ",")
	if c.String("players") == "" || len(specs) < 2 {
		return cfg, "", nil, cliutil.Usagef("--players %q: need at least two players", c.String("players"))
	}
	if engines, err = readEngines(c); err != nil {
		return cfg, "", nil, err
	}
	timed, tablesMB, err := readPlayers(&cfg, specs, engines)
	if err != nil {
		return cfg, "", nil, err
	}
	if err := readGames(c, &cfg, tablesMB); err != nil {
		return cfg, "", nil, err
	}
	if err := readTournament(c, &cfg); err != nil {
		return cfg, "", nil, err
	}
	if err := readOutputs(c, &cfg); err != nil {
		return cfg, "", nil, err
	}
	if err := readSeed(c, &cfg); err != nil {
		return cfg, "", nil, err
	}
	cfg.Event = c.String("event")
	host, _ := os.Hostname()
	cfg.Site = host
	desc, err = readOpenings(c, &cfg)
	if rounds := match.OpeningRounds(&cfg); err == nil && match.OpeningBlocks(len(cfg.Openings), rounds) > 1 {
		b := match.OpeningBlocks(len(cfg.Openings), rounds)
		desc += fmt.Sprintf("; %d of them in this match, none shared with a match whose seed differs modulo %d", rounds, b)
	}
	if err == nil && len(timed) > 0 {
		desc += fmt.Sprintf("; note: %s play with a time limit or outside rafle, so games are not reproducible from the seed", strings.Join(timed, ", "))
	}
	return cfg, desc, engines, err
}

// readPlayers adds the players of --players' specs to cfg: an --engine's name, or a
// player of rafle's search, the same one twice numbered name#2. It returns the names of
// those that are not reproducible, and the size of the transposition tables of one of
// each.
func readPlayers(cfg *match.Config, specs []string, engines *engineSet) (timed []string, tablesMB int64, err error) {
	count := map[string]int{}
	for _, s := range specs {
		var e match.Entrant
		if name := strings.TrimSpace(s); engines.has(name) {
			e = match.Entrant{Name: name} // its engine starts once the flags are read
		} else {
			ps, err := search.ParsePlayer(s)
			if err != nil {
				return nil, 0, cliutil.UsageError{Err: fmt.Errorf("--players: %w (nor is it an --engine name)", err)}
			}
			ps.EGDB = cfg.EGDB
			e = match.Engine(ps.String(), ps)
			tablesMB += int64(cmp.Or(ps.HashMB, search.DefaultHashMB))
		}
		if count[e.Name]++; count[e.Name] > 1 {
			if engines.has(e.Name) {
				return nil, 0, cliutil.Usagef("--players: engine %s named twice", e.Name)
			}
			e.Name = fmt.Sprintf("%s#%d", e.Name, count[e.Name])
		}
		cfg.Players = append(cfg.Players, e)
		if !e.Deterministic {
			timed = append(timed, e.Name)
		}
	}
	return timed, tablesMB, nil
}

// readGames reads --adjudicate, --games, --jobs and --max-plies, and checks that the
// players' tables of tablesMB (one of each) fit in memory for every worker.
func readGames(c *cli.Context, cfg *match.Config, tablesMB int64) error {
	if a := c.String("adjudicate"); a != "" {
		adj, err := match.ParseAdjudication(a)
		if err != nil {
			return cliutil.Usagef("--adjudicate: %v", err)
		}
		cfg.Adjudication = &adj
	}
	if cfg.Games = c.Int("games"); cfg.Games < 1 {
		return cliutil.Usagef("--games %d: must be at least 1", cfg.Games)
	}
	if cfg.Concurrency = c.Int("concurrency"); c.IsSet("concurrency") {
		if err := cliutil.CheckJobs("--jobs", cfg.Concurrency); err != nil {
			return err
		}
	}
	// each worker keeps a table per player it plays
	tablesMB *= int64(cmp.Or(cfg.Concurrency, runtime.NumCPU()))
	if cfg.EGDB != nil {
		tablesMB += egdb.DefaultCacheMB // the database's cache, shared
	}
	if err := cliutil.CheckMemory("--players hash= times --jobs", tablesMB); err != nil {
		return err
	}
	cliutil.BoundHeap(tablesMB) // peak memory: the tables and about 20 MiB more
	if cfg.MaxPlies = c.Int("max-plies"); cfg.MaxPlies < 0 {
		return cliutil.Usagef("--max-plies %d: must not be negative", cfg.MaxPlies)
	}
	return nil
}

// readTournament reads --tournament, --sprt, --rounds, --anchor and the shard, and
// checks that the tournament can be played with them.
func readTournament(c *cli.Context, cfg *match.Config) error {
	if cfg.Tournament = c.String("tournament"); !slices.Contains(match.Tournaments, cfg.Tournament) {
		return cliutil.Usagef("--tournament %q: want %s", cfg.Tournament, strings.Join(match.Tournaments, ", "))
	}
	if s := c.String("sprt"); s != "" {
		t, err := stats.ParseSPRT(s)
		if err != nil {
			return cliutil.Usagef("--sprt: %v", err)
		}
		if len(cfg.Players) != 2 {
			return cliutil.Usagef("--sprt needs exactly two players, not %d", len(cfg.Players))
		}
		cfg.SPRT = &t
	}
	if cfg.Rounds = c.Int("rounds"); c.IsSet("rounds") && (cfg.Tournament != match.Swiss || cfg.Rounds < 1) {
		return cliutil.Usagef("--rounds %d: a number of rounds from 1 for --tournament swiss", cfg.Rounds)
	}
	var err error
	if cfg.Anchor, cfg.AnchorElo, err = parseAnchor(c.String("anchor"), names(cfg.Players)); err != nil {
		return err
	}
	if cfg.Shard, err = cliutil.ReadShard(c); err != nil {
		return err
	}
	if err := cfg.CheckTournament(); err != nil {
		return cliutil.Usagef("--tournament %s: %v", cfg.Tournament, strings.TrimPrefix(err.Error(), "match: "))
	}
	return nil
}

// readOutputs reads --pdn, --journal (by default beside the PDN file, or in --report's
// folder) and --resume, each file the shard's own, and checks them.
func readOutputs(c *cli.Context, cfg *match.Config) error {
	// one file per shard, unless the match has only one
	cfg.PDNPath, cfg.JournalPath, cfg.Resume = cfg.Shard.Path(c.String("pdn"), false), cfg.Shard.Path(c.String("journal"), false), c.Bool("resume")
	if st, err := os.Stat(cfg.PDNPath); err == nil && st.IsDir() {
		return cliutil.Usagef("--pdn %s: is a directory", cfg.PDNPath)
	}
	if cfg.JournalPath == "" && besideOK(cfg.PDNPath) {
		cfg.JournalPath = cfg.PDNPath + ".journal"
	}
	if dir := c.String("report"); cfg.JournalPath == "" && dir != "" {
		cfg.JournalPath = cfg.Shard.Path(filepath.Join(dir, reportJournal), false)
	}
	switch {
	case cfg.Resume && cfg.JournalPath == "" && cfg.PDNPath != "":
		return cliutil.Usagef("--resume: --pdn %s is a device, a FIFO or a stream, so no journal is kept beside it: give --journal", cfg.PDNPath)
	case cfg.Resume && cfg.JournalPath == "":
		return cliutil.Usagef("--resume needs --output, --journal or --report")
	case cfg.JournalPath == "" && cfg.PDNPath != "":
		fmt.Fprintf(c.App.ErrWriter, "selfplay: --pdn %s is a device, a FIFO or a stream: no journal beside it (give --journal to make the match resumable)\n", cfg.PDNPath)
	}
	return checkOutputs(c, cfg)
}

// readSeed reads --seed; without it a resumed match takes its journal's, and a new one
// a new seed.
func readSeed(c *cli.Context, cfg *match.Config) error {
	cfg.Seed = c.Int64("seed")
	switch {
	case c.IsSet("seed"):
	case cfg.Resume:
		h, err := match.ReadJournalHeader(cfg.JournalPath)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		cfg.Seed = h.Seed
		if err != nil {
			cfg.Seed = newSeed()
		}
	default:
		cfg.Seed = newSeed()
	}
	return nil
}

// besideOK reports whether files may be written beside path, named after it (the journal,
// engines' logs): path is a regular file or not there yet, not a device (/dev/full), a FIFO,
// a directory, or a name under /dev or /proc.
func besideOK(path string) bool {
	if path == "" || match.DevicePath(path) { // /dev/stdout, even redirected to a file
		return false
	}
	st, err := os.Stat(path)
	return err != nil || st.Mode().IsRegular()
}

// checkOutputs refuses outputs that are one of the match's inputs (the --openings and
// --book files, the players' weights files), and a PDN file that is also the journal.
func checkOutputs(c *cli.Context, cfg *match.Config) error {
	inputs := []string{c.String("openings"), c.String("book")}
	for _, s := range strings.Split(c.String("players"), ",") {
		if ps, err := search.ParsePlayer(s); err == nil {
			inputs = append(inputs, ps.WeightsFile)
		}
	}
	for _, out := range []struct{ flag, path string }{{"--pdn", cfg.PDNPath}, {"--journal", cfg.JournalPath}} {
		if err := cliutil.NotAnInput(out.path, inputs...); err != nil {
			return cliutil.Usagef("%s: %v", out.flag, err)
		}
	}
	if cfg.PDNPath != "" && cfg.JournalPath != "" {
		same := filepath.Clean(cfg.PDNPath) == filepath.Clean(cfg.JournalPath)
		if same || cliutil.NotAnInput(cfg.PDNPath, cfg.JournalPath) != nil {
			return cliutil.Usagef("--pdn %s and the journal %s are the same file", cfg.PDNPath, cfg.JournalPath)
		}
	}
	return nil
}

func newSeed() int64 { return rand.Int64N(1 << 53) } // keeps it exact in JSON

// readOpenings fills cfg.Openings from --openings, --opening-set, or random openings.
func readOpenings(c *cli.Context, cfg *match.Config) (string, error) {
	v := cfg.Variant
	file, set := c.String("openings"), c.String("opening-set")
	if file != "" && set != "" {
		return "", cliutil.Usagef("--openings and --opening-set exclude each other")
	}
	if c.String("book") != "" {
		if file != "" || set != "" {
			return "", cliutil.Usagef("--book excludes --openings and --opening-set")
		}
		return readBookOpenings(c, cfg)
	}
	if c.Int("random-plies") < 0 {
		return "", cliutil.Usagef("--random-plies %d: must not be negative", c.Int("random-plies"))
	}
	switch {
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return "", err
		}
		defer f.Close()
		cfg.Openings, err = match.ReadOpenings(f, file, v)
		return fmt.Sprintf("%s (%d)", file, len(cfg.Openings)), err
	case set != "" && c.IsSet("random-plies"):
		return "", cliutil.Usagef("--random-plies excludes --opening-set")
	case set != "" || len(corpus.OpeningSets(v.Name)) > 0 && !c.IsSet("random-plies"):
		if set == "" {
			set = corpus.DefaultOpeningSet(v.Name)
		}
		data, path, err := corpus.OpeningSet(v.Name, set)
		if err != nil {
			return "", cliutil.Usagef("--opening-set: %v", err)
		}
		cfg.Openings, err = match.ReadOpenings(strings.NewReader(string(data)), path, v)
		return fmt.Sprintf("%s %s (%d)", v.Name, set, len(cfg.Openings)), err
	}
	k := c.Int("random-plies")
	n := min(match.OpeningRounds(cfg), maxRandomOpenings)
	var err error
	cfg.Openings, err = match.RandomOpenings(v, k, n, cfg.Seed, match.SearchBalanced(v, balanceDepth, balanceMargin))
	return fmt.Sprintf("%d random of %d plies, balanced at depth %d within %d", len(cfg.Openings), k, balanceDepth, balanceMargin), err
}

// readBookOpenings fills cfg.Openings with lines of the --book file: every line to
// --book-depth (all), or one random line per game pair, weighted by games (weighted).
func readBookOpenings(c *cli.Context, cfg *match.Config) (string, error) {
	path, mode, depth := c.String("book"), c.String("book-mode"), c.Int("book-depth")
	if depth < 1 {
		return "", cliutil.Usagef("--book-depth %d: must be at least 1", depth)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := book.ReadJSON(f, path)
	if err != nil {
		return "", err
	}
	if b.Variant != cfg.Variant {
		return "", cliutil.Usagef("--book %s is a %s book, not %s", path, b.Variant.Name, cfg.Variant.Name)
	}
	var lines []book.Line
	switch mode {
	case "all":
		lines = b.Lines(depth)
	case "weighted":
		lines = b.RandomLines(min(match.OpeningRounds(cfg), maxRandomOpenings), depth, cfg.Seed)
	default:
		return "", cliutil.Usagef("--book-mode %q: want weighted or all", mode)
	}
	for _, l := range lines {
		g := engine.NewGame(cfg.Variant, b.Root)
		for _, m := range l.Moves {
			if err := g.Play(m); err != nil {
				return "", fmt.Errorf("%s: line %s: %w", path, l.Text, err)
			}
		}
		if !g.Outcome().Over {
			cfg.Openings = append(cfg.Openings, match.Opening{Name: "book: " + l.Text, Root: b.Root, Moves: l.Moves})
		}
	}
	if len(cfg.Openings) == 0 {
		return "", fmt.Errorf("--book %s: %w", path, match.ErrNoOpenings)
	}
	return fmt.Sprintf("%s, %s lines to %d plies (%d)", path, mode, depth, len(cfg.Openings)), nil
}

// progressBar returns a progress bar on stderr when it is a terminal, and nil otherwise.
func progressBar(c *cli.Context, stderr io.Writer) *progressbar.ProgressBar {
	return cliutil.Progress(stderr, c.Bool("quiet"), -1, "games", progressbar.OptionShowCount())
}
