package cli_test

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gear-chat/gear/cli"
)

// gear eval --library over Seal-Tools' 4,076 tools twice with one history:
// the second run reads the library as read, its index and its vectors from
// the store (docs/benchmarks.md) and decides every query exactly as the
// first — choice, confidence, ranking and every tool's scores.
func TestEvalLibraryFromStore(t *testing.T) {
	t.Parallel()
	dir := "../testdata/benchmarks-dev/sealtools"
	queries := filepath.Join(t.TempDir(), "q.jsonl")
	f, err := os.Open(filepath.Join(dir, "dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var some []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for i := 0; i < 8 && sc.Scan(); i++ {
		some = append(some, sc.Bytes()...)
		some = append(some, '\n')
	}
	if err := os.WriteFile(queries, some, 0o600); err != nil {
		t.Fatal(err)
	}
	env := offlineEnv(t)
	run := func(out string) []map[string]any {
		t.Helper()
		_, errOut, code := runLibGear(t, env, cli.Deps{}, "eval", "--json", "--offline", "--out", out,
			"--library", filepath.Join(dir, "library.json"), queries)
		if code != cli.ExitOK || errOut != "" {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var preds []map[string]any
		for _, line := range splitLines(b) {
			var p map[string]any
			if err := json.Unmarshal(line, &p); err != nil {
				t.Fatal(err)
			}
			delete(p, "ms")
			preds = append(preds, p)
		}
		return preds
	}
	first := run(filepath.Join(t.TempDir(), "first.jsonl"))
	db, err := sql.Open("sqlite3", "file:"+env["GEAR_DB"]+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var blobs int
	err = db.QueryRow("SELECT count(*) FROM embeddings WHERE model IN ('blob:tool-library', 'blob:library-scores')").Scan(&blobs)
	db.Close()
	if err != nil || blobs != 2 {
		t.Errorf("the history holds %d records of the library and its index after the first run (%v), want 2", blobs, err)
	}
	second := run(filepath.Join(t.TempDir(), "second.jsonl"))
	if len(first) != 8 || !reflect.DeepEqual(first, second) {
		t.Errorf("the run from the store decided differently:\nfirst  %v\nsecond %v", first, second)
	}
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			out = append(out, append([]byte(nil), sc.Bytes()...))
		}
	}
	return out
}
