package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/shard"
)

// shardTexts are two inputs of international games: some equal, one with an illegal move,
// one cut short, one without a GameType tag.
func shardTexts() [][]byte {
	openings := []string{"32-28 19-23 28x19 14x23", "33-28 18-22 28x17 11x22", "31-27 17-21", "32-28 19-23 28x19 13x24"}
	var texts [][]byte
	for in := range 2 {
		var b strings.Builder
		for i := range 150 + 37*in {
			moves := openings[(i*7+in)%len(openings)]
			if i%41 == 5 {
				moves = "32-28 32-28" // illegal
			}
			tag := "[GameType \"20\"]\n"
			if i%29 == 3 {
				tag = ""
			}
			fmt.Fprintf(&b, "[Event \"e%d\"]\n[White \"w%d\"]\n%s\n%s %s\n\n", i%5, i%11, tag, moves, []string{"2-0", "0-2", "1-1", "*"}[i%4])
		}
		b.WriteString("[Event \"cut\"]\n\n32-28 {open")
		texts = append(texts, []byte(b.String()))
	}
	return texts
}

// TestShardSelect: the shards of Validate, CollectStats and Copy (Job.Select =
// shard.Shard.Has), read in one goroutine or in pieces, add up to the whole job, each game in
// one shard.
func TestShardSelect(t *testing.T) {
	ctx := context.Background()
	const n = 3
	for _, jobs := range []int{1, 4} {
		job := jobOf(shardTexts()...)
		job.Jobs, job.pieceSize = jobs, 1024
		rp := &pdn.Replayer{}
		whole, werr := Validate(ctx, job, ValidateOptions{Jobs: jobs, Replay: rp})
		wst, _ := CollectStats(ctx, job, StatsOptions{Jobs: jobs, Replay: rp})
		var wout bytes.Buffer
		jw := pdn.NewJSONWriter(&wout)
		wres, _ := Copy(ctx, job, jw, CopyOptions{Replay: &ReplayCopy{Replayer: *rp}, Dedupe: &Deduper{}})
		jw.Flush()

		sums := make([]*Summary, len(whole))
		for i := range sums {
			sums[i] = newSummary(whole[i].File)
			sums[i].Variants = map[string]int{}
		}
		st := NewStats()
		var res CopyResult
		seen := map[string]int{} // games of the copy, by shard
		for k := range n {
			sj := job
			sj.Select = shard.Shard{Index: k, Count: n}.Has
			ss, serr := Validate(ctx, sj, ValidateOptions{Jobs: jobs, Replay: rp})
			if fmt.Sprint(serr) != fmt.Sprint(werr) {
				t.Errorf("jobs %d, shard %d: error %v, whole %v", jobs, k, serr, werr)
			}
			for i, s := range ss {
				sums[i].Error = s.Error
				sums[i].Add(s)
			}
			sst, _ := CollectStats(ctx, sj, StatsOptions{Jobs: jobs, Replay: rp})
			b, err := json.Marshal(sst)
			if err != nil {
				t.Fatal(err)
			}
			back := NewStats()
			if err := json.Unmarshal(b, back); err != nil {
				t.Fatal(err)
			}
			st.Merge(back)
			r, _ := Copy(ctx, sj, pdn.NewJSONWriter(&bytes.Buffer{}), CopyOptions{Replay: &ReplayCopy{Replayer: *rp},
				Outcome: func(in *Input, g int, _ CopyOutcome) {
					key := fmt.Sprintf("%s game %d", in.Name, g)
					if s, ok := seen[key]; ok {
						t.Errorf("jobs %d: %s in shards %d and %d", jobs, key, s, k)
					}
					seen[key] = k
				}})
			res.Read += r.Read
		}
		if g, w := fmt.Sprint(sums), fmt.Sprint(whole); !reflect.DeepEqual(sums, whole) {
			t.Errorf("jobs %d: the shards' summaries add up to\n%s\nnot\n%s", jobs, g, w)
		}
		if g, w := st.Report(0), wst.Report(0); !reflect.DeepEqual(g, w) {
			t.Errorf("jobs %d: the shards' statistics merge to\n%+v\nnot\n%+v", jobs, g, w)
		}
		if res.Read != wres.Read || len(seen) != wres.Read {
			t.Errorf("jobs %d: the shards copied %d games (%d distinct), the whole job %d", jobs, res.Read, len(seen), wres.Read)
		}
		if wres.Duplicates == 0 || wres.ReplayErrors == 0 || wres.Errors == 0 || werr != nil {
			t.Errorf("jobs %d: the test games lack duplicates, replay errors or read errors: %+v, %v", jobs, wres, werr)
		}
	}
}
