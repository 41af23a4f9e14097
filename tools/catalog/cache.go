package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/gear-chat/gear/internal/buildinfo"
	"github.com/gear-chat/gear/tools"
)

// A library file as read, kept in the store. Reading Seal-Tools' 4,076
// tools is most of a second's tenth — JSON, every schema, every example's
// call checked — for a file that rarely changes. LoadCached keeps the
// library as read (its tools, warnings and header) as one record, keyed by
// the file's path, a digest of its bytes and the reader's version, so the
// next run with the same file reads the record back instead (the file is
// still read, to know its digest: a changed file is never served stale).

// Cache keeps derived records across runs; *store.Store satisfies it.
// CachedBlob returns nil, nil when it has no record; the bytes it returns
// are the caller's.
type Cache interface {
	CachedBlob(ctx context.Context, kind, key string) ([]byte, error)
	PutBlob(ctx context.Context, kind, key string, data []byte) error
}

// cacheKind is the cache's kind of record for a library as read.
const cacheKind = "tool-library"

// cacheFormat is the layout of a cached library; bump it when
// encodeLibrary changes.
const cacheFormat = 1

// CacheMinBytes is the file size from which LoadCached uses its cache: a
// smaller file (MetaTool's 199 tools are 190 KB) is read in a few
// milliseconds, as fast as its record.
const CacheMinBytes = 512 << 10

// WorthCaching reports whether the file at path is large enough for
// LoadCached to use a cache (so a caller need not open one otherwise).
func WorthCaching(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Size() >= CacheMinBytes
}

// LoadCached is Load through cache (nil: Load): a file read before, the
// same bytes at the same path by the same reader, comes from the cache.
// A cache that fails or holds a damaged record costs the file's reading
// and a warning, never the library. A file under CacheMinBytes is read.
func LoadCached(ctx context.Context, path string, cache Cache) (*Library, error) {
	return loadCached(ctx, path, cache, CacheMinBytes)
}

// loadCached is LoadCached with files from minBytes up cached.
func loadCached(ctx context.Context, path string, cache Cache, minBytes int) (*Library, error) {
	if cache == nil {
		return Load(path)
	}
	raw, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if len(raw) < minBytes {
		return parse(raw, path)
	}
	sum := sha256.Sum256(raw)
	key := readerVersion() + "|" + buildinfo.Stamp() + "|" + path + "|" + hex.EncodeToString(sum[:])
	var warnings []string
	data, err := cache.CachedBlob(ctx, cacheKind, key)
	switch {
	case err != nil:
		warnings = append(warnings, fmt.Sprintf("tool library %s: the cache could not be read (%s); read the file instead", path, oneLine(err.Error())))
	case data != nil:
		lib, err := decodeLibrary(data, path)
		if err == nil {
			return lib, nil
		}
		warnings = append(warnings, fmt.Sprintf("tool library %s: the cached copy is unreadable (%v); read the file again", path, err))
	}
	lib, err := parse(raw, path)
	if err != nil {
		return nil, err
	}
	if data, err := encodeLibrary(lib); err == nil {
		err = cache.PutBlob(ctx, cacheKind, key, data)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("tool library %s: not cached (%s)", path, oneLine(err.Error())))
		}
	}
	lib.Warnings = append(lib.Warnings, warnings...)
	return lib, nil
}

// cachedLibrary is what a record holds: the library without its path
// (the key's), each tool's spec and original name.
type cachedLibrary struct {
	Name, Origin, License string
	Specs                 []tools.Spec
	OriginalNames         []string
	Warnings              []string
}

// encodeLibrary is the library as a record: a magic word, the format,
// then cachedLibrary field by field.
func encodeLibrary(lib *Library) ([]byte, error) {
	c := cachedLibrary{Name: lib.Name, Origin: lib.Origin, License: lib.License, Warnings: lib.Warnings,
		Specs: make([]tools.Spec, len(lib.Tools)), OriginalNames: make([]string, len(lib.Tools))}
	for i, t := range lib.Tools {
		c.Specs[i], c.OriginalNames[i] = t.spec, t.OriginalName
	}
	e := encoder{b: make([]byte, 0, 1<<20)}
	e.b = append(e.b, "GLIB"...)
	e.uvarint(cacheFormat)
	e.value(reflect.ValueOf(&c).Elem())
	return e.b, e.err
}

// decodeLibrary reads encodeLibrary's record back as the library at path.
func decodeLibrary(data []byte, path string) (*Library, error) {
	if len(data) < 4 || string(data[:4]) != "GLIB" {
		return nil, errCorrupt
	}
	d := &decoder{b: data, s: string(data), at: 4}
	if d.uvarint() != cacheFormat {
		return nil, errCorrupt
	}
	var c cachedLibrary
	compile(reflect.TypeOf(c), map[reflect.Type]decodeFunc{})(d, reflect.ValueOf(&c).Elem())
	if d.err == nil && d.at != len(d.b) {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(c.OriginalNames) != len(c.Specs) {
		return nil, errCorrupt
	}
	lib := &Library{Path: path, Name: c.Name, Origin: c.Origin, License: c.License, Warnings: c.Warnings}
	if len(c.Specs) > 0 {
		lib.Tools = make([]*Tool, len(c.Specs))
		backing := make([]Tool, len(c.Specs))
		for i := range c.Specs {
			backing[i] = Tool{spec: c.Specs[i], OriginalName: c.OriginalNames[i]}
			lib.Tools[i] = &backing[i]
		}
	}
	return lib, nil
}

// readerVersion names the code that reads a library and the shape of
// what it returns: the format, the record's type, and a digest of a small
// library (probeLibrary) as this code reads it — a change to how schemas,
// examples or names are read changes it, so a record from older code is
// never served, without anyone remembering to bump a constant.
func readerVersion() string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\n%s\n", cacheFormat, typeShape(reflect.TypeOf(cachedLibrary{})))
	lib, err := parse([]byte(probeLibrary), "probe.json")
	if err != nil {
		fmt.Fprintf(h, "error %v", err)
	} else if data, err := encodeLibrary(lib); err != nil {
		fmt.Fprintf(h, "error %v", err)
	} else {
		h.Write(data)
	}
	return fmt.Sprintf("catalog-v%d-%s", cacheFormat, hex.EncodeToString(h.Sum(nil))[:16])
}

// typeShape spells a type's structure: field names and types, recursively.
func typeShape(t reflect.Type) string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		b.WriteString(t.String())
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Struct:
			b.WriteString("{")
			for i := range t.NumField() {
				b.WriteString(t.Field(i).Name + " ")
				walk(t.Field(i).Type)
				b.WriteString(";")
			}
			b.WriteString("}")
		case reflect.Slice, reflect.Pointer, reflect.Array:
			b.WriteString("(")
			walk(t.Elem())
			b.WriteString(")")
		case reflect.Map:
			b.WriteString("(")
			walk(t.Key())
			b.WriteString(",")
			walk(t.Elem())
			b.WriteString(")")
		}
	}
	walk(t)
	return b.String()
}

// probeLibrary exercises what the reader does: every parameter type,
// enums, nested objects and arrays, bounds, defaults, patterns, formats,
// an untyped parameter, examples with and without calls, a bad example,
// a tool without a name, a taken name, a description to clean.
const probeLibrary = `{"name": "Probe library", "source": "gear tests", "license": "MIT", "tools": [
 {"name": "get_weather", "original_name": "Get Weather!", "description": "Get the  weather\tforecast for a city",
  "inputSchema": {"type": "object", "properties": {
    "city": {"type": "string", "description": "City name", "minLength": 1, "maxLength": 80},
    "days": {"type": "integer", "minimum": 1, "maximum": 14, "default": 3},
    "units": {"type": "string", "enum": ["metric", "imperial"]},
    "when": {"type": "string", "format": "date"},
    "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
    "detailed": {"type": "boolean"},
    "ratio": {"type": "number"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "where": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}},
    "anything": {"description": "no type"}},
   "required": ["city"]},
  "examples": [{"query": "weather in Oslo for 3 days", "arguments": {"city": "Oslo", "days": 3}},
   {"query": "is it cold in Rome?"},
   {"query": "weather", "arguments": {"days": "many"}}]},
 {"description": "no name"},
 {"name": "get_weather", "description": "a taken name"},
 {"name": "translate", "description": "", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}
]}`
