package grounding_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// countingScorer counts the libraries the offline engine indexes; version,
// when set, stands for another version of the engine's index code.
type countingScorer struct {
	*offline.Engine
	indexed atomic.Int32
	version string
}

func (c *countingScorer) IndexTools(specs []tools.Spec) grounding.LibraryScores {
	c.indexed.Add(1)
	return c.Engine.IndexTools(specs)
}

func (c *countingScorer) IndexVersion() string {
	if c.version != "" {
		return c.version
	}
	return c.Engine.IndexVersion()
}

// spyBlobs is the store, remembering the keys of the blobs written.
type spyBlobs struct {
	*store.Store
	mu   sync.Mutex
	keys map[string]string // key -> kind
}

func (s *spyBlobs) PutBlob(ctx context.Context, kind, key string, data []byte) error {
	s.mu.Lock()
	s.keys[key] = kind
	s.mu.Unlock()
	return s.Store.PutBlob(ctx, kind, key, data)
}

// archiveLibrary is n tools with mocks (never run), the description of
// tool i from desc.
func archiveLibrary(t *testing.T, n int, desc func(i int) string) *tools.Registry {
	t.Helper()
	ts := make([]tools.Tool, n)
	for i := range ts {
		ts[i] = &fakeTool{spec: tools.Spec{Name: fmt.Sprintf("Lookup%04d", i), Family: tools.Family(fmt.Sprintf("x%04d", i)),
			Description: desc(i), Params: []tools.Param{{Name: "topic", Type: tools.TypeString}}, Mock: "record about {topic}"}}
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

var archiveSubjects = []string{"whales", "volcanoes", "tax law", "jazz", "orchids", "bridges", "comets", "cheese"}

func archiveDesc(i int) string {
	return fmt.Sprintf("looks up record %d of the archive about %s", i, archiveSubjects[i%len(archiveSubjects)])
}

// With CacheLibrary and the store, a large library's index (the offline
// engine's postings) is one record: the next grounder reads it instead of
// indexing, and scores bit for bit as the first. A changed library, a
// changed engine and a corrupt record are indexed again, never served
// stale, never a crash.
func TestLibraryScoresInStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "gear.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	spy := &spyBlobs{Store: st, keys: map[string]string{}}
	type built struct {
		g      *grounding.Grounder
		scorer *countingScorer
	}
	build := func(reg *tools.Registry, version string, cache grounding.EmbeddingCache) built {
		t.Helper()
		off := offline.New(offline.Options{Tools: reg.Specs()})
		sc := &countingScorer{Engine: off, version: version}
		eng := off.Grounding()
		eng.Library = sc
		opts := grounding.DefaultOptions()
		opts.Cache, opts.CacheLibrary = cache, true
		g, err := grounding.New(reg, eng, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Prepare(ctx); err != nil {
			t.Fatal(err)
		}
		return built{g, sc}
	}
	queries := []string{"look up record 417 of the archive about whales", "anything on jazz bridges", "cheese"}
	// same says b scores every query exactly as a, with no warning.
	same := func(what string, a, b *grounding.Grounder, warn string) {
		t.Helper()
		for _, q := range queries {
			ra, err := a.Ground(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			rb, err := b.Ground(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for i := range ra.Tools {
				if ra.Tools[i].S != rb.Tools[i].S || ra.Tools[i].F != rb.Tools[i].F {
					t.Fatalf("%s: %q: %s: S %v F %v, want S %v F %v", what, q, ra.Tools[i].Tool, rb.Tools[i].S, rb.Tools[i].F, ra.Tools[i].S, ra.Tools[i].F)
				}
			}
			if !reflect.DeepEqual(ra.Choice, rb.Choice) {
				t.Errorf("%s: %q: choice %+v, want %+v", what, q, rb.Choice, ra.Choice)
			}
			got := strings.Join(rb.Warnings, "\n")
			if warn == "" && got != "" || !strings.Contains(got, warn) {
				t.Errorf("%s: warnings %q, want %q", what, got, warn)
			}
		}
	}
	reg := archiveLibrary(t, 300, archiveDesc)
	fresh := build(reg, "", nil) // no cache: what the index must score like
	first := build(reg, "", spy)
	if n := first.scorer.indexed.Load(); n != 1 {
		t.Fatalf("first grounder indexed %d times, want 1", n)
	}
	if len(spy.keys) == 0 {
		t.Fatal("no record was written")
	}
	second := build(reg, "", spy)
	if n := second.scorer.indexed.Load(); n != 0 {
		t.Errorf("second grounder indexed %d times, want 0 (the index is in the store)", n)
	}
	same("from the store", fresh.g, second.g, "")

	// One description changed: indexed again, scored as the new library.
	changed := archiveLibrary(t, 300, func(i int) string {
		if i == 7 {
			return "translates poems about whales into French"
		}
		return archiveDesc(i)
	})
	c := build(changed, "", spy)
	if n := c.scorer.indexed.Load(); n != 1 {
		t.Errorf("a changed library was indexed %d times, want 1 (never the old index)", n)
	}
	same("changed library", build(changed, "", nil).g, c.g, "")

	// Another version of the engine's index code: indexed again.
	v := build(reg, "offline-index-test-other-version", spy)
	if n := v.scorer.indexed.Load(); n != 1 {
		t.Errorf("another engine version was indexed %d times, want 1", n)
	}

	// A corrupt record: indexed again with a warning, then rewritten.
	for _, junk := range [][]byte{{}, []byte("GLIX"), []byte("not an index at all"), {'G', 'L', 'I', 'X', 1, 0xff, 0xff, 0xff, 0xff, 0x0f}} {
		for key, kind := range spy.keys {
			if kind != "library-scores" {
				continue
			}
			if err := st.PutBlob(ctx, kind, key, junk); err != nil {
				t.Fatal(err)
			}
		}
		bad := build(reg, "", spy)
		if n := bad.scorer.indexed.Load(); n != 1 {
			t.Errorf("corrupt record %q: indexed %d times, want 1", junk, n)
		}
		same(fmt.Sprintf("corrupt record %q", junk), fresh.g, bad.g, "stored index is unreadable")
		again := build(reg, "", spy)
		if n := again.scorer.indexed.Load(); n != 0 {
			t.Errorf("after a corrupt record %q: indexed %d times, want 0 (rewritten)", junk, n)
		}
	}
}

// TestSpecsDigestCoversEveryField: setting any field of a spec, however
// deep (a parameter's enum, an example's call, a hint's map), changes the
// digest — it walks the specs by reflection, so a field added to
// tools.Spec later is covered too; a field that is not data fails here.
func TestSpecsDigestCoversEveryField(t *testing.T) {
	t.Parallel()
	// A skeleton spec: every list one element long, every pointer set,
	// so that every leaf field exists; leaves collects a setter for each.
	skeleton := reflect.New(reflect.TypeOf(tools.Spec{})).Elem()
	type leaf struct {
		path      string
		set, zero func()
	}
	var leaves []leaf
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				leaves = append(leaves, leaf{path, func() { v.SetBytes([]byte("x")) }, func() { v.SetBytes(nil) }})
				return
			}
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			walk(v.Index(0), path+"[0]")
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			walk(v.Elem(), path+"*")
		case reflect.Map:
			leaves = append(leaves, leaf{path, func() {
				m := reflect.MakeMap(v.Type())
				m.SetMapIndex(reflect.Zero(v.Type().Key()), reflect.Zero(v.Type().Elem()))
				v.Set(m)
			}, func() { v.Set(reflect.Zero(v.Type())) }})
		case reflect.String:
			leaves = append(leaves, leaf{path, func() { v.SetString("x") }, func() { v.SetString("") }})
		case reflect.Bool:
			leaves = append(leaves, leaf{path, func() { v.SetBool(true) }, func() { v.SetBool(false) }})
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			leaves = append(leaves, leaf{path, func() { v.SetInt(1) }, func() { v.SetInt(0) }})
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			leaves = append(leaves, leaf{path, func() { v.SetUint(1) }, func() { v.SetUint(0) }})
		case reflect.Float32, reflect.Float64:
			leaves = append(leaves, leaf{path, func() { v.SetFloat(1.5) }, func() { v.SetFloat(0) }})
		default:
			t.Errorf("%s: a spec holds a %s, which is not data a digest can read", path, v.Kind())
		}
	}
	walk(skeleton, "Spec")
	if len(leaves) < 20 {
		t.Fatalf("only %d leaf fields found", len(leaves))
	}
	digest := func() string { return grounding.SpecsDigest([]tools.Spec{skeleton.Interface().(tools.Spec)}) }
	zero := digest()
	if zero != digest() {
		t.Fatal("the digest of one spec differs from itself")
	}
	for _, l := range leaves {
		l.set()
		if digest() == zero {
			t.Errorf("%s: setting it does not change the digest", l.path)
		}
		l.zero()
	}
	// Order and boundaries count: ("ab", "") is not ("a", "b").
	a := []tools.Spec{{Name: "ab"}}
	b := []tools.Spec{{Name: "a", Family: "b"}}
	if grounding.SpecsDigest(a) == grounding.SpecsDigest(b) {
		t.Error("the digest does not separate fields")
	}
}
