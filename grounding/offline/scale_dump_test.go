package offline_test

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/gear-chat/gear/grounding"
)

// scoreDump writes, with GEAR_SCORE_DUMP=FILE, one JSON line per tool item
// of TestMeasureOfflineAtScale: the first 20 tools by S with S, P, status,
// the call confidence and the argument fit — for trying other pattern
// scores on the items without grounding them again (BENCHMARKS.md, "The
// pattern stage on library tools").
type scoreDump struct {
	f *os.File
}

func openScoreDump(t testing.TB) *scoreDump {
	path := os.Getenv("GEAR_SCORE_DUMP")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &scoreDump{f: f}
}

type dumpTool struct {
	Tool   string                 `json:"tool"`
	Right  bool                   `json:"right"`
	S      float64                `json:"s"`
	P      float64                `json:"p"`
	Status string                 `json:"status"`
	Conf   float64                `json:"conf"`
	Fit    *grounding.ArgumentFit `json:"fit"`
}

func (d *scoreDump) write(id string, r *grounding.Result, right map[string]bool) {
	if d == nil {
		return
	}
	ts := append([]grounding.ToolScore(nil), r.Tools...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].S > ts[j].S })
	if len(ts) > 20 {
		ts = ts[:20]
	}
	line := struct {
		ID    string     `json:"id"`
		Tools []dumpTool `json:"tools"`
	}{ID: id}
	for _, t := range ts {
		dt := dumpTool{Tool: t.Tool, Right: right[t.Tool], S: t.S, P: t.P, Status: string(t.Status)}
		if t.Reading != nil {
			dt.Conf, dt.Fit = t.Reading.Confidence, t.Reading.Fit
		}
		line.Tools = append(line.Tools, dt)
	}
	b, _ := json.Marshal(line)
	d.f.Write(append(b, '\n'))
}
