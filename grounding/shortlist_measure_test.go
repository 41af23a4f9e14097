package grounding_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gear-chat/gear/grounding/offline"
)

// TestMeasureShortlistRank measures, on a public tool-selection set, how
// often the right tool is inside the shortlist (recall at k) when tools are
// ranked by the query's cosine with the description alone, with the best
// usage example alone, and with combinations — the figures behind
// grounding.DefaultShortlist and ShortlistBy. It needs the benchmark sets
// (GEAR_BENCHMARKS=../shared/benchmarks) and is skipped without them.
func TestMeasureShortlistRank(t *testing.T) {
	dir := os.Getenv("GEAR_BENCHMARKS")
	if dir == "" {
		t.Skip("GEAR_BENCHMARKS not set")
	}
	for _, set := range []string{"metatool", "bfcl", "sealtools"} {
		measureSet(t, filepath.Join(dir, set))
	}
}

type benchTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Examples    []struct {
		Query string `json:"query"`
	} `json:"examples"`
}

func measureSet(t *testing.T, dir string) {
	raw, err := os.ReadFile(filepath.Join(dir, "library.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lib struct{ Tools []benchTool }
	if err := json.Unmarshal(raw, &lib); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type query struct {
		Query      string   `json:"query"`
		Tool       string   `json:"tool"`
		Candidates []string `json:"candidates"`
	}
	var qs []query
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var q query
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		if q.Tool != "" && q.Tool != "none" {
			qs = append(qs, q)
		}
	}
	if len(qs) > 600 {
		qs = qs[:600]
	}
	enc := offline.New(offline.Options{})
	ctx := context.Background()
	var texts []string
	descAt := make([]int, len(lib.Tools))
	exAt := make([][]int, len(lib.Tools))
	for i, tl := range lib.Tools {
		descAt[i] = len(texts)
		texts = append(texts, tl.Description)
		for _, ex := range tl.Examples {
			exAt[i] = append(exAt[i], len(texts))
			texts = append(texts, ex.Query)
		}
	}
	vecs, err := enc.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range vecs {
		vecs[i] = unit(vecs[i])
	}
	index := map[string]int{}
	for i, tl := range lib.Tools {
		index[tl.Name] = i
	}
	ks := []int{1, 4, 8, 16, 32}
	// The last rows are the rules tried for S itself (semantic.go): a mix,
	// and an example only when its cosine reaches a gate.
	methods := []string{"description", "best example", "max(description, best example)", "description + best example / 2", "mean(description, examples)",
		"0.9 description + 0.1 best example", "0.5 description + 0.5 best example",
		"an example only at cos >= 0.8", "an example only at cos >= 0.85", "an example only at cos >= 0.95"}
	hits := make([][]int, len(methods))
	for m := range hits {
		hits[m] = make([]int, len(ks))
	}
	counted := 0
	for _, q := range qs {
		right, ok := index[q.Tool]
		if !ok {
			continue
		}
		cands := make([]int, 0, len(lib.Tools))
		if len(q.Candidates) > 0 {
			for _, c := range q.Candidates {
				if i, ok := index[c]; ok {
					cands = append(cands, i)
				}
			}
		} else {
			for i := range lib.Tools {
				cands = append(cands, i)
			}
		}
		qv, err := enc.Embed(ctx, []string{q.Query})
		if err != nil {
			t.Fatal(err)
		}
		qu := unit(qv[0])
		counted++
		for m := range methods {
			score := map[int]float64{}
			for _, i := range cands {
				d := cos(qu, vecs[descAt[i]])
				best, sum := 0.0, d
				for _, e := range exAt[i] {
					c := cos(qu, vecs[e])
					best = math.Max(best, c)
					sum += c
				}
				switch m {
				case 0:
					score[i] = d
				case 1:
					score[i] = best
				case 2:
					score[i] = math.Max(d, best)
				case 3:
					score[i] = d + best/2
				case 4:
					score[i] = sum / float64(1+len(exAt[i]))
				case 5, 6:
					w := []float64{0.1, 0.5}[m-5]
					score[i] = d
					if len(exAt[i]) > 0 {
						score[i] = (1-w)*d + w*best
					}
				case 7, 8, 9:
					score[i] = d
					if gate := []float64{0.8, 0.85, 0.95}[m-7]; best >= gate {
						score[i] = math.Max(d, best)
					}
				}
			}
			order := append([]int(nil), cands...)
			sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
			rank := len(order)
			for r, i := range order {
				if i == right {
					rank = r
					break
				}
			}
			for j, k := range ks {
				if rank < k {
					hits[m][j]++
				}
			}
		}
	}
	t.Logf("%s: %d tools, %d tool queries (offline lexical encoder)", filepath.Base(dir), len(lib.Tools), counted)
	for m, name := range methods {
		line := fmt.Sprintf("  %-34s", name)
		for j, k := range ks {
			line += fmt.Sprintf("  r@%d %.3f", k, float64(hits[m][j])/float64(counted))
		}
		t.Log(line)
	}
}

func unit(v []float32) []float32 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if ss == 0 {
		return out
	}
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(ss))
	}
	return out
}

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
