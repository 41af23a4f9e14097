package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkRecordTurn measures a turn's writes: BeginTurn (the user's
// message, synced to disk), FinishTurn (the record with 5 tools'
// grounding rows, a call, usage and the answer), and both.
func BenchmarkRecordTurn(b *testing.B) {
	ctx := context.Background()
	s := openBench(b)
	conv, err := s.CreateConversation(ctx, NewConversation{Mode: ModeChat})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("begin", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.BeginTurn(ctx, conv, "what's the weather in Adelaide tomorrow", ModeChat); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("finish-5-tools", func(b *testing.B) {
		refs := make([]TurnRef, 0, b.N)
		for range b.N {
			ref, err := s.BeginTurn(ctx, conv, "what's the weather in Adelaide tomorrow", ModeChat)
			if err != nil {
				b.Fatal(err)
			}
			refs = append(refs, ref)
		}
		b.ResetTimer()
		for i := range b.N {
			if err := s.FinishTurn(ctx, benchRecord(refs[i].TurnID)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("begin+finish", func(b *testing.B) {
		for b.Loop() {
			ref, err := s.BeginTurn(ctx, conv, "what's the weather in Adelaide tomorrow", ModeChat)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.FinishTurn(ctx, benchRecord(ref.TurnID)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchRecord(turnID int64) TurnRecord {
	rec := TurnRecord{
		TurnID: turnID, Status: StatusDone, Route: RouteTool, RouteBy: RouteByThreshold,
		RouteProbability: 0.97, RouteThreshold: 0.5, ChosenBy: ChosenByGrounding, AnsweredBy: AnsweredByModel,
		Tool: "Weather", ToolFamily: "weather", Confidence: 0.91, Grounded: true, Emission: EmissionGuided,
		Latency: Latency{Route: 80 * time.Millisecond, Ground: 400 * time.Millisecond, Emit: 120 * time.Millisecond,
			Tool: 90 * time.Millisecond, Answer: 700 * time.Millisecond, Total: 1400 * time.Millisecond},
		Usage: []RoleUsage{
			{Role: RoleChat, Calls: 2, PromptTokens: 812, CompletionTokens: 96},
			{Role: RoleGrounding, Calls: 6, PromptTokens: 2210, CompletionTokens: 240},
			{Role: RoleEmbedding, Calls: 1, PromptTokens: 9},
		},
		Calls: []ToolCall{{Tool: "Weather", Source: ToolSource{Kind: SourceBuiltin}, Call: `Weather("Adelaide", "2026-11-03")`, Check: CallValidated,
			Response: "Adelaide, 2026-11-03: 24 °C, sunny, wind 14 km/h", Duration: 90 * time.Millisecond}},
		Answer: "Tomorrow in Adelaide it will be sunny and 24 °C (Weather, confidence 0.91).",
	}
	for i, tool := range []string{"Weather", "TimezoneConverter", "Calculator", "WikiSearch", "Location"} {
		rec.Grounding = append(rec.Grounding, GroundingScore{
			Tool: tool, Family: "f" + tool, Semantic: 0.9 - 0.1*float64(i), Pattern: 0.5, Final: 0.8 - 0.1*float64(i),
			Call: tool + `("Adelaide")`, Response: "a response excerpt from " + tool + " for Adelaide", ResponseKind: ResponseMock,
			Probability: 0.91 / float64(1+9*i),
		})
	}
	return rec
}

// BenchmarkOpen measures opening a new database (creating it and applying
// every migration) and reopening a migrated one.
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	b.Run("create+migrate", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			s, err := Open(ctx, filepath.Join(dir, fmt.Sprintf("new-%d.db", i)), Options{})
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
	path := filepath.Join(dir, "existing.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.Close()
	b.Run("reopen", func(b *testing.B) {
		for b.Loop() {
			s, err := Open(ctx, path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
}

// BenchmarkSearch100k searches a history of 100,000 messages (50,000
// turns, most with a tool response too), built once, and reports the
// median latency.
func BenchmarkSearch100k(b *testing.B) {
	ctx := context.Background()
	s := openBench(b)
	if err := buildHistory(ctx, s, 50_000); err != nil {
		b.Fatal(err)
	}
	for _, query := range []string{
		"adelaide",
		"weather adelaide",
		"adelaide tool:weather conf>0.5",
		"adel*",
		`"time in tokyo"`,
		"weather", // in a quarter of the messages
		"tool:timezone since:2026-11-01",
	} {
		q, err := ParseQuery(query, time.UTC)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(query, func(b *testing.B) {
			var times []time.Duration
			hits := 0
			for b.Loop() {
				start := time.Now()
				found, err := s.Search(ctx, q, 20)
				times = append(times, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				hits = len(found)
			}
			if hits == 0 {
				b.Fatalf("%s: no hits", query)
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		})
	}
}

func openBench(b *testing.B) *Store {
	b.Helper()
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "gear.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

var benchCities = []string{
	"Adelaide", "Tokyo", "Paris", "Lagos", "Lima", "Oslo", "Cairo", "Quito", "Hanoi", "Dublin",
	"Nairobi", "Toronto", "Santiago", "Mumbai", "Berlin", "Madrid", "Seoul", "Accra", "Perth", "Denver",
	"Havana", "Manila", "Tehran", "Lisbon", "Vienna", "Prague", "Bogota", "Dakar", "Riga", "Hobart",
	"Austin", "Boston", "Chicago", "Kyoto", "Osaka", "Milan", "Naples", "Porto", "Seville", "Geneva",
	"Zurich", "Munich", "Hamburg", "Warsaw", "Krakow", "Athens", "Istanbul", "Beirut", "Doha", "Muscat",
}

// buildHistory writes turns like gear's (weather, time, calculator and
// encyclopedia questions over 50 cities) directly, in one transaction: the
// triggers index them as FinishTurn's rows would be.
func buildHistory(ctx context.Context, s *Store, turns int) error {
	rng := rand.New(rand.NewPCG(1, 2))
	conditions := []string{"sunny", "cloudy", "light rain", "overcast", "windy", "showers"}
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	return s.write(ctx, false, func(tx *sql.Tx) error {
		var conv int64
		for i := range turns {
			at := start.Add(time.Duration(i) * 3 * time.Minute).UnixMilli()
			if i%10 == 0 {
				res, err := tx.ExecContext(ctx, `INSERT INTO conversations (mode, created_at, updated_at) VALUES ('chat', ?, ?)`, at, at)
				if err != nil {
					return err
				}
				if conv, err = res.LastInsertId(); err != nil {
					return err
				}
			}
			city, other := benchCities[rng.IntN(len(benchCities))], benchCities[rng.IntN(len(benchCities))]
			var query, tool, family, response, answer string
			switch rng.IntN(4) {
			case 0:
				cond := conditions[rng.IntN(len(conditions))]
				query = fmt.Sprintf("what's the weather going to be like in %s tomorrow afternoon", city)
				tool, family = "Weather", "weather"
				response = fmt.Sprintf("%s: %d °C, %s, wind %d km/h, humidity %d%%", city, 5+rng.IntN(30), cond, rng.IntN(40), 20+rng.IntN(70))
				answer = fmt.Sprintf("Tomorrow afternoon in %s it should be %s. I used the Weather tool.", city, cond)
			case 1:
				query = fmt.Sprintf("what time is it in %s right now compared to %s", city, other)
				tool, family = "TimezoneConverter", "timezone"
				response = fmt.Sprintf("%02d:%02d in %s is %02d:%02d in %s", rng.IntN(24), rng.IntN(60), city, rng.IntN(24), rng.IntN(60), other)
				answer = fmt.Sprintf("It is currently %02d:%02d in %s; the time in %s is shown by the TimezoneConverter tool.", rng.IntN(24), rng.IntN(60), city, other)
			case 2:
				a, c := rng.IntN(1000), rng.IntN(100)+1
				query = fmt.Sprintf("what is %d multiplied by %d divided by 2", a, c)
				tool, family = "Calculator", "calc"
				response = fmt.Sprint(float64(a*c) / 2)
				answer = fmt.Sprintf("%d × %d ÷ 2 = %v, computed with the Calculator.", a, c, float64(a*c)/2)
			default:
				query = fmt.Sprintf("tell me about the history of %s and its famous landmarks", city)
				tool, family = "WikiSearch", "wiki"
				response = fmt.Sprintf("%s is a city with a long history; its landmarks include the old town, the harbour and the %s museum.", city, other)
				answer = fmt.Sprintf("%s has a long history. Among its landmarks are the old town and the harbour, according to Wikipedia.", city)
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO turns (conversation_id, query, mode, status, route, tool, tool_family,
				confidence, emission, created_at, finished_at) VALUES (?, ?, 'chat', 'done', 'tool', ?, ?, ?, 'guided', ?, ?)`,
				conv, query, tool, family, 0.3+0.7*rng.Float64(), at, at+1500)
			if err != nil {
				return err
			}
			turn, err := res.LastInsertId()
			if err != nil {
				return err
			}
			for role, text := range map[string]string{"user": query, "assistant": answer} {
				_, err := tx.ExecContext(ctx, `INSERT INTO messages (conversation_id, turn_id, role, text, created_at)
					VALUES (?, ?, ?, ?, ?)`, conv, turn, role, text, at)
				if err != nil {
					return err
				}
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO tool_calls (turn_id, seq, tool, call, checked, response, created_at)
				VALUES (?, 1, ?, ?, 'validated', ?, ?)`, turn, tool, tool+"(...)", response, at)
			if err != nil {
				return err
			}
		}
		return nil
	})
}
