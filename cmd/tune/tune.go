package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/report"
	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/tune"
)

// config is the command line, checked.
type config struct {
	variant  *engine.Variant
	files    []string
	format   string // of the input
	json     bool   // the summary as JSON
	filter   tune.Filter
	fit      tune.Config
	features []string // --features, checked against the variant once it is known
	fix      []string
	init     string
	initData []byte // the --init FILE, read before any input
	out      string
	// spooled maps the inputs that cannot be opened twice (standard input, FIFOs) to the
	// temporary files that hold them, once load has kept them (see cliutil.Spool).
	spooled map[string]string
	// requireImprovement refuses to write weights whose held-out loss is worse.
	requireImprovement bool
	source             string // --source
}

func tuneAction(c *cli.Context) error {
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "tune: seed %d\n", cfg.fit.Seed)
	defer func() {
		for _, path := range cfg.spooled {
			os.Remove(path)
		}
	}()
	d, err := load(c, cfg)
	if err != nil {
		return err
	}
	if err := resolve(cfg, d); err != nil {
		return err
	}
	// L-BFGS mostly stops well before its maximum: no remaining time is predicted.
	if bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), int64(cfg.fit.MaxIterations), "fit, L-BFGS iterations",
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(false)); bar != nil {
		cfg.fit.Progress = func(done, total int64) {
			bar.ChangeMax64(total)
			_ = bar.Set64(done)
		}
		defer bar.Close()
	}
	started := time.Now()
	var iters []report.TuneIteration
	if c.String("report") != "" {
		cfg.fit.Iteration = func(i int, train, held float64) {
			iters = append(iters, report.TuneIteration{Iteration: i, Train: train, Holdout: held})
		}
	}
	res, err := tune.Fit(c.Context, d, cfg.fit)
	if err != nil {
		if cfg.out != "" {
			return fmt.Errorf("%w (%s not written)", err, cfg.out)
		}
		return err
	}
	if dir := c.String("report"); dir != "" {
		if err := writeReport(dir, cfg, d, res, iters, time.Since(started)); err != nil {
			return err
		}
	}
	return finish(c, cfg, res, d.Stats)
}

// finish writes the weights, unless the held-out loss got worse with --require-improvement
// (a warning without it), and prints the summary.
func finish(c *cli.Context, cfg *config, res *tune.Result, st tune.LoadStats) error {
	out := cfg.out
	worse := res.Holdout != nil && res.Holdout.After > res.Holdout.Before
	if worse {
		h := res.Holdout
		fmt.Fprintf(c.App.ErrWriter, "tune: warning: the held-out loss got worse, %.6f to %.6f (%+.2f%%): "+
			"the new weights fit the training games, not games in general; try --l2 or more games\n",
			h.Before, h.After, 100*(h.After-h.Before)/h.Before)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(c.App.ErrWriter, "tune: warning: %s: %s\n", w.Kind, w.Message)
	}
	distrust := worse || len(res.Warnings) > 0
	if distrust && cfg.requireImprovement {
		out = ""
	}
	res.New.Source = cfg.source
	if out != "" {
		if err := cliutil.WriteFile(out, res.New.Save); err != nil {
			return err
		}
	}
	var err error
	if cfg.json {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		err = enc.Encode(summary{Result: res, Data: st, Out: out})
	} else {
		err = render(c.App.Writer, res, st, out)
	}
	if err == nil && distrust && cfg.requireImprovement {
		var why []string
		if worse {
			why = append(why, "the held-out loss got worse")
		}
		for _, w := range res.Warnings {
			why = append(why, w.Kind)
		}
		err = fmt.Errorf("--require-improvement: %s", strings.Join(why, ", "))
		if cfg.out != "" {
			err = fmt.Errorf("%w; %s not written", err, cfg.out)
		}
	}
	return err
}

// summary is the --json output.
type summary struct {
	*tune.Result
	Data tune.LoadStats `json:"data"`
	Out  string         `json:"out,omitempty"`
}

// readConfig reads and checks the flags; nothing is read before it succeeds.
func readConfig(c *cli.Context) (*config, error) {
	cfg := &config{files: c.Args().Slice(), format: c.String("input-format"), out: c.String("output"), init: c.String("init")}
	switch f := c.String("format"); f {
	case "text":
	case "json":
		cfg.json = true
	case "auto", "pdn", "csv": // --format was the input's format
		if !c.IsSet("input-format") {
			cfg.format = f
		}
	default:
		return nil, cliutil.Usagef("--format %q: want text or json", f)
	}
	cfg.json = cfg.json || c.Bool("json")
	if len(cfg.files) == 0 {
		return nil, cliutil.Usagef("no input: give PDN or CSV files (- for stdin)")
	}
	if s := c.String("variant"); s != "" {
		v, err := engine.Lookup(s)
		if err != nil {
			return nil, cliutil.UsageError{Err: err}
		}
		cfg.variant = v
	}
	if f := cfg.format; f != "auto" && f != "pdn" && f != "csv" {
		return nil, cliutil.Usagef("--input-format %q: want auto, pdn or csv", f)
	}
	if cfg.filter.SkipPlies = c.Int("skip-plies"); cfg.filter.SkipPlies < 0 {
		return nil, cliutil.Usagef("--skip-plies %d: must not be negative", cfg.filter.SkipPlies)
	}
	var err error
	if cfg.filter.Quiet, err = tune.ParseQuiet(c.String("quiet-test")); err != nil {
		return nil, cliutil.Usagef("--quiet-test: %v", strings.TrimPrefix(err.Error(), "tune: "))
	}
	cfg.filter.KeepDuplicates = c.Bool("keep-duplicates")
	cfg.fit.Patterns, cfg.fit.FitScale, cfg.source = c.Bool("patterns"), c.Bool("fit-scale"), c.String("source")
	if cfg.fit.PatternL2 = c.Float64("pattern-l2"); !(cfg.fit.PatternL2 >= 0) {
		return nil, cliutil.Usagef("--pattern-l2 %g: must not be negative", cfg.fit.PatternL2)
	}
	if cfg.fit.PatternShare, err = tune.ParseShare(c.String("pattern-share")); err != nil {
		return nil, cliutil.Usagef("--pattern-share: %v", strings.TrimPrefix(err.Error(), "tune: "))
	}
	if c.IsSet("pattern-share") && !cfg.fit.Patterns {
		return nil, cliutil.Usagef("--pattern-share needs --patterns")
	}
	if cfg.fit.Patterns && cfg.variant != nil && search.PatternWindows(cfg.variant) == 0 {
		return nil, cliutil.Usagef("--patterns: %s's board has no patterns (8x8 and 10x10 boards have)", cfg.variant.Name)
	}
	if cfg.fit.Loss, err = tune.ParseLoss(c.String("loss")); err != nil {
		return nil, cliutil.Usagef("--loss: %v", strings.TrimPrefix(err.Error(), "tune: "))
	}
	if c.IsSet("features") && c.IsSet("fix") {
		return nil, cliutil.Usagef("--features and --fix exclude each other")
	}
	cfg.features, cfg.fix = list(c.String("features")), list(c.String("fix"))
	if c.IsSet("features") && len(cfg.features) == 0 {
		return nil, cliutil.Usagef("--features: empty list")
	}
	if cfg.fit.Holdout = c.Float64("holdout"); !(cfg.fit.Holdout >= 0 && cfg.fit.Holdout < 1) {
		return nil, cliutil.Usagef("--holdout %g: want a share from 0 to below 1", cfg.fit.Holdout)
	}
	if cfg.fit.L2 = c.Float64("l2"); !(cfg.fit.L2 >= 0) {
		return nil, cliutil.Usagef("--l2 %g: must not be negative", cfg.fit.L2)
	}
	if cfg.fit.K = c.Float64("k"); !(cfg.fit.K >= 0) {
		return nil, cliutil.Usagef("--k %g: must not be negative", cfg.fit.K)
	}
	if cfg.fit.MaxIterations = c.Int("iterations"); cfg.fit.MaxIterations < 1 {
		return nil, cliutil.Usagef("--iterations %d: must be at least 1", cfg.fit.MaxIterations)
	}
	cfg.fit.Seed = c.Uint64("seed")
	if !c.IsSet("seed") {
		cfg.fit.Seed = rand.Uint64N(1 << 53) // exact in JSON
	}
	if cfg.requireImprovement = c.Bool("require-improvement"); cfg.requireImprovement && cfg.fit.Holdout == 0 {
		return nil, cliutil.Usagef("--require-improvement needs a held-out set (--holdout above 0)")
	}
	if cfg.out != "" {
		if st, err := os.Stat(filepath.Dir(cfg.out)); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--output %s: no such directory", cfg.out)
		}
		if err := cliutil.NotAnInput(cfg.out, cfg.files...); err != nil {
			return nil, cliutil.Usagef("--out: %v", err)
		}
	}
	if dir := c.String("report"); dir != "" {
		if err := cliutil.ReportNotAnInput(dir, cfg.files...); err != nil {
			return nil, cliutil.Usagef("--report: %v", err)
		}
	}
	if err := checkFeatures(cfg); err != nil {
		return nil, err
	}
	if cfg.init != "default" && cfg.init != "zero" {
		if cfg.initData, err = readInit(c, cfg); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// maxInitSize bounds the --init file: a weights file is a few hundred bytes.
const maxInitSize = 1 << 20

// readInit reads the --init file, and checks it against the variant when --variant gives it,
// so that a bad file is refused before any input is read.
func readInit(c *cli.Context, cfg *config) ([]byte, error) {
	f, err := cliutil.OpenInput(c.Context, cfg.init)
	if err != nil {
		return nil, cliutil.Usagef("--init: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInitSize+1))
	if err != nil {
		return nil, fmt.Errorf("--init %s: %w", cfg.init, err)
	}
	if len(data) > maxInitSize {
		return nil, cliutil.Usagef("--init %s: more than %d bytes: not a weights file", cfg.init, maxInitSize)
	}
	if cfg.variant != nil {
		if _, err := search.LoadWeights(bytes.NewReader(data), cfg.variant); err != nil {
			return nil, cliutil.Usagef("--init %s: %v", cfg.init, err)
		}
	}
	return data, nil
}

// checkFeatures checks the names of --features and --fix before any input is read: against
// the variant's features when --variant gives it, else against those of every variant (the
// variant of the games is known only once they are read; resolve checks them again).
func checkFeatures(cfg *config) error {
	flag, names := "--features", cfg.features
	if cfg.fix != nil {
		flag, names = "--fix", cfg.fix
	}
	if names == nil {
		return nil
	}
	var known []string
	if cfg.variant != nil {
		known = search.FeatureNames(cfg.variant)
	} else {
		for _, n := range engine.Names() {
			v, err := engine.Lookup(n)
			if err != nil {
				continue
			}
			for _, f := range search.FeatureNames(v) {
				if !slices.Contains(known, f) {
					known = append(known, f)
				}
			}
		}
	}
	for _, f := range names {
		if !slices.Contains(known, f) {
			of := "any variant's"
			if cfg.variant != nil {
				of = cfg.variant.Name + "'s"
			}
			return cliutil.Usagef("%s: unknown feature %q (%s features: %s)", flag, f, of, strings.Join(known, ", "))
		}
	}
	return nil
}

func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// load reads every input file into one data set.
func load(c *cli.Context, cfg *config) (*tune.Dataset, error) {
	if cfg.variant == nil {
		// The variant is inferred from the games, and then they are read: an input that
		// cannot be opened twice is kept in a temporary file.
		cfg.spooled = map[string]string{}
		for _, name := range cfg.files {
			if _, ok := cfg.spooled[name]; ok || cliutil.Reopenable(name) || cfg.format == "csv" {
				continue
			}
			r, err := openInput(c, name)
			var path string
			if err == nil {
				path, _, err = cliutil.Spool(c.Context, r, name, cliutil.SpoolLimit())
				r.Close()
			}
			if err != nil {
				if c.Context.Err() != nil {
					return nil, fmt.Errorf("%s: stopped after 0 games: %w", name, err) // as loading says it
				}
				return nil, err
			}
			cfg.spooled[name] = path
		}
		v, err := inferVariant(c, cfg)
		if err != nil {
			return nil, err
		}
		cfg.variant = v
	}
	if cfg.fit.Patterns && cfg.variant != nil && search.PatternWindows(cfg.variant) == 0 {
		return nil, cliutil.Usagef("--patterns: %s's board has no patterns (8x8 and 10x10 boards have)", cfg.variant.Name)
	}
	d := tune.NewDataset(cfg.variant)
	d.Patterns = cfg.fit.Patterns
	for _, name := range cfg.files {
		if err := loadFile(c, cfg, d, name); err != nil {
			return nil, err
		}
	}
	st := d.Stats
	fmt.Fprintf(c.App.ErrWriter, "tune: %d positions from %d games (%d read, %d duplicates, %d without result, %d bad)\n",
		st.Positions, st.Games, st.Read, st.Duplicates, st.NoResult, st.Bad)
	if st.FirstError != "" {
		fmt.Fprintf(c.App.ErrWriter, "tune: first bad game: %s\n", st.FirstError)
	}
	if d.Len() == 0 {
		return nil, fmt.Errorf("%w in %s (%d games read, %d bad, %d without result)", tune.ErrNoPositions, strings.Join(cfg.files, ", "), st.Read, st.Bad, st.NoResult)
	}
	if st.Bad > 0 && !c.Bool("skip-bad") {
		return nil, fmt.Errorf("%d games could not be read or replayed (the first is named above): --skip-bad fits without them", st.Bad)
	}
	return d, nil
}

// inferVariant infers the variant of games without a GameType tag as pdn validate does
// (pdn.InferVariant), from the first PDN file that has such games; nil when every game has
// the tag.
func inferVariant(c *cli.Context, cfg *config) (*engine.Variant, error) {
	for _, name := range cfg.files {
		f, err := cfg.open(c, name)
		if err != nil && c.Context.Err() != nil {
			return nil, fmt.Errorf("%s: stopped after 0 games: %w", name, err) // as loading says it
		}
		if err != nil {
			return nil, err
		}
		br := bufio.NewReaderSize(f, 64<<10)
		if cfg.isCSV(name, br) {
			f.Close()
			continue
		}
		inf, err := pdn.InferVariant(c.Context, br, pdn.ReaderOptions{})
		f.Close()
		if err != nil && c.Context.Err() != nil {
			return nil, fmt.Errorf("%s: stopped after 0 games: %w", name, err) // as loading says it
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if inf.Variant != nil {
			fmt.Fprintf(c.App.ErrWriter, "tune: %s: %s (give --variant to choose)\n", name, inf)
			return inf.Variant, nil
		}
	}
	return nil, nil
}

// openInput opens the input name: stdin for "-", else the file, without a wait that
// Ctrl-C cannot end.
func openInput(c *cli.Context, name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(cliutil.InterruptibleReader(c.Context, c.App.Reader)), nil
	}
	return cliutil.OpenInput(c.Context, name)
}

// open opens the input name, or the temporary file that holds it.
func (cfg *config) open(c *cli.Context, name string) (io.ReadCloser, error) {
	if path, ok := cfg.spooled[name]; ok {
		return cliutil.OpenInput(c.Context, path)
	}
	return openInput(c, name)
}

// isCSV reports whether the input name, read by br, is CSV rows (--format, or auto: the
// name ends in .csv or the first line is a header starting with game).
func (cfg *config) isCSV(name string, br *bufio.Reader) bool {
	if cfg.format != "auto" {
		return cfg.format == "csv"
	}
	head, _ := br.Peek(256)
	first, _, _ := bytes.Cut(bytes.TrimPrefix(head, []byte("\ufeff")), []byte("\n"))
	return strings.HasSuffix(strings.ToLower(name), ".csv") || strings.HasPrefix(strings.ToLower(string(first)), "game,")
}

func loadFile(c *cli.Context, cfg *config, d *tune.Dataset, name string) error {
	f, err := cfg.open(c, name)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	var size int64 = -1
	if st, ok := f.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	if bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), size, "reading "+filepath.Base(name), progressbar.OptionShowBytes(true)); bar != nil {
		defer bar.Close()
		r = io.TeeReader(r, bar)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	if cfg.isCSV(name, br) {
		if d.Variant == nil {
			return cliutil.Usagef("%s: CSV input needs --variant", name)
		}
		return d.ReadCSV(c.Context, br, name, cfg.filter)
	}
	return d.ReadPDN(c.Context, br, name, cfg.filter)
}

// resolve sets the starting weights and the tuned features, now that the variant is known.
func resolve(cfg *config, d *tune.Dataset) error {
	v := d.Variant
	switch cfg.init {
	case "default":
		cfg.fit.Init = search.HandWeights(v)
	case "zero":
		cfg.fit.Init = nil // set below, once the tuned features are known
	default:
		w, err := search.LoadWeights(bytes.NewReader(cfg.initData), v)
		if err != nil {
			return fmt.Errorf("--init %s: %w", cfg.init, err)
		}
		cfg.fit.Init = w
	}
	var err error
	switch {
	case cfg.features != nil:
		cfg.fit.Tune = cfg.features
		for _, f := range cfg.features {
			if !slices.Contains(d.Names, f) {
				err = cliutil.Usagef("--features: unknown feature %q (known: %s)", f, strings.Join(d.Names, ", "))
				break
			}
		}
	case cfg.fix != nil:
		cfg.fit.Tune, err = tune.Fix(d.Names, cfg.fix)
		if err != nil {
			err = cliutil.Usagef("--fix: %v", strings.TrimPrefix(err.Error(), "tune: "))
		}
	}
	if err != nil {
		return err
	}
	if cfg.init == "zero" {
		w := search.HandWeights(v)
		tuned := cfg.fit.Tune
		if tuned == nil {
			tuned, _ = tune.Fix(d.Names, nil)
		}
		for _, f := range tuned {
			w.Values[f] = 0
		}
		cfg.fit.Init = w
	}
	return nil
}
