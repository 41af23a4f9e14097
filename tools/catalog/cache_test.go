package catalog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools/catalog"
)

// spyCache is the store, counting writes and remembering their keys.
type spyCache struct {
	*store.Store
	mu     sync.Mutex
	puts   int
	keys   map[string]bool
	broken bool // every read fails
}

func (s *spyCache) CachedBlob(ctx context.Context, kind, key string) ([]byte, error) {
	if s.broken {
		return nil, errors.New("database is locked")
	}
	return s.Store.CachedBlob(ctx, kind, key)
}

func (s *spyCache) PutBlob(ctx context.Context, kind, key string, data []byte) error {
	s.mu.Lock()
	s.puts++
	s.keys[kind+"\x00"+key] = true
	s.mu.Unlock()
	return s.Store.PutBlob(ctx, kind, key, data)
}

func (s *spyCache) writes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.puts
}

func openSpy(t *testing.T) *spyCache {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "gear.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &spyCache{Store: st, keys: map[string]bool{}}
}

// A library read through the cache is the library Load reads, field for
// field (tools, schemas, examples, warnings, header), the first time and
// from the cache the second.
func TestLoadCachedIsLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.json")
	if err := os.WriteFile(probe, []byte(catalog.ProbeLibrary), 0o600); err != nil {
		t.Fatal(err)
	}
	paths := []string{probe}
	for _, set := range []string{"metatool", "bfcl", "sealtools"} {
		paths = append(paths, filepath.Join("../../testdata/benchmarks-dev", set, "library.json"))
	}
	spy := openSpy(t)
	for _, path := range paths {
		want, err := catalog.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for round, wantPuts := range []int{1, 0} {
			before := spy.writes()
			got, err := catalog.LoadCachedAnySize(ctx, path, spy)
			if err != nil {
				t.Fatalf("%s, round %d: %v", path, round, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, round %d: the library read through the cache differs from Load's", path, round)
			}
			if n := spy.writes() - before; n != wantPuts {
				t.Errorf("%s, round %d: %d writes to the cache, want %d", path, round, n, wantPuts)
			}
		}
	}
	if want, _ := catalog.Load(probe); len(want.Warnings) == 0 || len(want.Tools) != 2 {
		t.Errorf("the probe library should load 2 tools with warnings: %d tools, %q", len(want.Tools), want.Warnings)
	}
}

// A file changed in place is read again, never served from the record of
// its old bytes; a damaged record is read again with a warning and
// rewritten; a cache that fails costs a warning, not the library.
func TestLoadCachedNeverStale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lib.json")
	write := func(desc string) {
		t.Helper()
		doc := `{"name": "t", "tools": [{"name": "a", "description": "` + desc + `", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}]}`
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	spy := openSpy(t)
	load := func() *catalog.Library {
		t.Helper()
		lib, err := catalog.LoadCachedAnySize(ctx, path, spy)
		if err != nil {
			t.Fatal(err)
		}
		return lib
	}
	write("first words")
	if d := load().Tools[0].Spec().Description; d != "first words" {
		t.Fatalf("description %q", d)
	}
	write("second words")
	if d := load().Tools[0].Spec().Description; d != "second words" {
		t.Errorf("a changed file read as %q, want the new %q", d, "second words")
	}
	want, err := catalog.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, junk := range [][]byte{{}, []byte("GLIB"), []byte("GLIB\x01\xff\xff\xff\xff\x0f"), []byte("not a library")} {
		spy.mu.Lock()
		keys := make([]string, 0, len(spy.keys))
		for k := range spy.keys {
			keys = append(keys, k)
		}
		spy.mu.Unlock()
		for _, k := range keys {
			kind, key, _ := strings.Cut(k, "\x00")
			if err := spy.Store.PutBlob(ctx, kind, key, junk); err != nil {
				t.Fatal(err)
			}
		}
		got := load()
		if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "cached copy is unreadable") {
			t.Errorf("record %q: warnings %q, want one about the cached copy", junk, got.Warnings)
		}
		got.Warnings = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("record %q: the library differs from the file's", junk)
		}
		if again := load(); !reflect.DeepEqual(again, want) {
			t.Errorf("record %q: not rewritten (%q)", junk, again.Warnings)
		}
	}
	spy.broken = true
	got := load()
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "database is locked") {
		t.Errorf("a failing cache: warnings %q", got.Warnings)
	}
	// A file that cannot be read is the same error as without a cache.
	if _, err := catalog.LoadCachedAnySize(ctx, filepath.Join(t.TempDir(), "none.json"), spy); !errors.As(err, new(*catalog.FileError)) {
		t.Errorf("a missing file: %v, want a FileError", err)
	}
}

// A file under CacheMinBytes is read, never cached.
func TestLoadCachedSmallFileRead(t *testing.T) {
	t.Parallel()
	spy := openSpy(t)
	path := "../../testdata/benchmarks-dev/metatool/library.json"
	if catalog.WorthCaching(path) {
		t.Fatalf("%s is worth caching; want a file under %d bytes", path, catalog.CacheMinBytes)
	}
	if _, err := catalog.LoadCached(context.Background(), path, spy); err != nil {
		t.Fatal(err)
	}
	if spy.writes() != 0 {
		t.Errorf("%d writes for a small file, want 0", spy.writes())
	}
	if !catalog.WorthCaching("../../testdata/benchmarks-dev/sealtools/library.json") {
		t.Error("Seal-Tools' 1.8 MB library is not worth caching")
	}
}
