package offline_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
	builtintools "github.com/gear-chat/gear/tools/builtin"
	"github.com/gear-chat/gear/tools/catalog"
	"github.com/gear-chat/gear/tools/place"
)

// The tool-selection benchmarks' libraries at scale (BENCHMARKS.md, "Tool-
// selection benchmarks"): the offline engine's time per query over
// MetaTool's 199 tools and Seal-Tools' 4,076, and the time and memory of
// loading and indexing the 4,076. They need the public sets
// (GEAR_BENCHMARKS=../shared/benchmarks) and are skipped without them.

func benchmarkSet(b *testing.B, set string) string {
	b.Helper()
	dir := benchmarksDir(b)
	path := filepath.Join(dir, set)
	if _, err := os.Stat(filepath.Join(path, "library.json")); err != nil {
		b.Skipf("no %s library in GEAR_BENCHMARKS: %v", set, err)
	}
	return path
}

// libraryQueries are the set's dev queries that carry no candidates (the
// whole library is ranked).
func libraryQueries(b *testing.B, dir string) []string {
	b.Helper()
	f, err := os.Open(filepath.Join(dir, "dev.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	items, err := grounding.ReadLibraryItems(bufio.NewReader(f))
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for _, it := range items {
		if len(it.Candidates) == 0 {
			qs = append(qs, it.Query)
		}
	}
	return qs
}

// libraryGrounder is what gear eval --library --offline builds: the file's
// tools, the offline engine over them with the gazetteer and the
// calculator's evaluator, the default options.
// With a cache (the store), the library as read and its index come from
// it, as gear does.
func libraryGrounder(b *testing.B, path string, places *place.Gazetteer, cache *store.Store) *grounding.Grounder {
	b.Helper()
	var lib *catalog.Library
	var err error
	var opts = grounding.DefaultOptions()
	if cache != nil {
		lib, err = catalog.LoadCached(context.Background(), path, cache)
		opts.Cache, opts.CacheLibrary = cache, true
	} else {
		lib, err = catalog.Load(path)
	}
	if err != nil {
		b.Fatal(err)
	}
	reg, err := tools.NewRegistry(lib.ToolList()...)
	if err != nil {
		b.Fatal(err)
	}
	eng := offline.New(offline.Options{Tools: reg.Specs(), Places: places, Evaluate: builtintools.Evaluate})
	g, err := grounding.New(reg, eng.Grounding(), opts)
	if err != nil {
		b.Fatal(err)
	}
	if err := g.Prepare(context.Background()); err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkLibraryQuery grounds the set's dev queries one at a time, in
// turn, over its whole library; ms/query-p50 and -p95 are the percentiles
// of the queries' own times (Result.ElapsedMS, what gear eval reports).
func BenchmarkLibraryQuery(b *testing.B) {
	for _, set := range []string{"metatool", "sealtools"} {
		b.Run(set, func(b *testing.B) {
			dir := benchmarkSet(b, set)
			places, err := place.Load()
			if err != nil {
				b.Fatal(err)
			}
			g := libraryGrounder(b, filepath.Join(dir, "library.json"), places, nil)
			qs := libraryQueries(b, dir)
			ms := make([]float64, 0, b.N)
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				res, err := g.Ground(context.Background(), qs[i%len(qs)])
				if err != nil {
					b.Fatal(err)
				}
				ms = append(ms, res.ElapsedMS)
			}
			b.StopTimer()
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/query")
			sort.Float64s(ms)
			b.ReportMetric(ms[len(ms)/2], "ms/query-p50")
			b.ReportMetric(ms[min(len(ms)-1, len(ms)*95/100)], "ms/query-p95")
		})
	}
}

// BenchmarkLibraryIndex loads Seal-Tools' 4,076 tools and indexes them
// (the library scorer's index, the offline encoder's vectors of every
// description and example): cold, and from the store's cache. MB is the
// heap the grounder keeps once built (live after a collection).
func BenchmarkLibraryIndex(b *testing.B) {
	dir := benchmarkSet(b, "sealtools")
	path := filepath.Join(dir, "library.json")
	places, err := place.Load()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			libraryGrounder(b, path, places, nil)
		}
		b.StopTimer()
		reportCPU(b, cpu0)
		reportHeap(b, func() any { return libraryGrounder(b, path, places, nil) })
	})
	// The library from the store (what gear eval --library does for a
	// large file): the library as read, the scorer's index and the
	// encoder's vectors, one record each; the first build writes them,
	// every iteration reads them (the file is still read for its digest).
	b.Run("from-store", func(b *testing.B) {
		st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "gear.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		libraryGrounder(b, path, places, st)
		b.ResetTimer()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			libraryGrounder(b, path, places, st)
		}
		b.StopTimer()
		reportCPU(b, cpu0)
		reportHeap(b, func() any { return libraryGrounder(b, path, places, st) })
	})
	// The index alone, from the store: the library already read (the
	// engine's lexicon, the grounder, the index and vectors read).
	b.Run("index-from-store", func(b *testing.B) {
		st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "gear.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		libraryGrounder(b, path, places, st)
		lib, err := catalog.Load(path)
		if err != nil {
			b.Fatal(err)
		}
		reg, err := tools.NewRegistry(lib.ToolList()...)
		if err != nil {
			b.Fatal(err)
		}
		opts := grounding.DefaultOptions()
		opts.Cache, opts.CacheLibrary = st, true
		b.ResetTimer()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			eng := offline.New(offline.Options{Tools: reg.Specs(), Places: places, Evaluate: builtintools.Evaluate})
			g, err := grounding.New(reg, eng.Grounding(), opts)
			if err != nil {
				b.Fatal(err)
			}
			if err := g.Prepare(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		reportCPU(b, cpu0)
	})
	// Reading the file alone: JSON, schemas, the registry's checks.
	b.Run("file-only", func(b *testing.B) {
		cpu0 := cpuTime()
		defer func() { reportCPU(b, cpu0) }()
		for i := 0; i < b.N; i++ {
			lib, err := catalog.Load(path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tools.NewRegistry(lib.ToolList()...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU reports the CPU time per operation since cpu0.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// reportHeap reports, as MB, the live heap that what build returns keeps.
func reportHeap(b *testing.B, build func() any) {
	b.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "MB")
}
