package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Hit is one turn a search found, with the best-matching text.
type Hit struct {
	ConversationID int64 `json:"conversation_id"`
	TurnID         int64 `json:"turn_id"`
	// Source is where the match is: "user" (the query), "assistant" (the
	// answer), "tool" (a tool's response), or "turn" for a search with
	// filters only (Snippet is then the query).
	Source string `json:"source"`
	// Snippet is an excerpt around the matches; Highlights are the byte
	// ranges of Snippet that matched.
	Snippet    string      `json:"snippet"`
	Highlights []Highlight `json:"highlights"`
	// Score is the BM25 relevance; higher is better; 0 for filters only.
	Score      float64 `json:"score"`
	Query      string  `json:"query"`
	Mode       Mode    `json:"mode"`
	Status     Status  `json:"status"`
	Tool       string  `json:"tool"`
	ToolFamily string  `json:"tool_family"`
	// Confidence is grounding's confidence in Tool, when Grounded (GEAR
	// grounding ran) and there is a Tool.
	Confidence float64   `json:"confidence"`
	Grounded   bool      `json:"grounded"`
	Started    time.Time `json:"started"`
	Rating     *Rating   `json:"rating,omitempty"`
}

// Highlight is a byte range [Start, End) of a snippet.
type Highlight struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Piece is a run of a hit's snippet: text between matches, or a match.
type Piece struct {
	Text  string
	Match bool
}

// Pieces splits the snippet at its highlights, in order, passing over a
// highlight that is out of order, out of range or empty; each piece can be
// sanitized and styled on its own, so the byte ranges stay right.
func (h Hit) Pieces() []Piece {
	var out []Piece
	at := 0
	for _, m := range h.Highlights {
		if m.Start < at || m.End > len(h.Snippet) || m.Start >= m.End {
			continue
		}
		out = append(out, Piece{Text: h.Snippet[at:m.Start]}, Piece{Text: h.Snippet[m.Start:m.End], Match: true})
		at = m.End
	}
	return append(out, Piece{Text: h.Snippet[at:]})
}

// Markers SQLite's snippet() puts around matches; Search turns them into
// Highlights.
const (
	markStart = "\x02"
	markEnd   = "\x03"
)

// rankedMatches bounds the matches ranked per source (messages, tool
// responses): the most recent ones. A rare word is ranked over the whole
// history; a word in most messages costs the same as a rarer one instead
// of growing with the history.
const rankedMatches = 1000

// snippetTokens is the snippet's length in words (FTS4 allows up to 64).
const snippetTokens = 16

// Search finds turns matching q, best first (BM25 over the words, among
// the rankedMatches most recent matches in messages and in tool responses;
// newest first for filters only), one hit per turn, at most limit (<= 0:
// 20).
func (s *Store) Search(ctx context.Context, q Query, limit int) ([]Hit, error) {
	if q.Empty() {
		return nil, fmt.Errorf("search: nothing to search for")
	}
	if limit <= 0 {
		limit = 20
	}
	var hits []Hit
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		hits, err = search(ctx, tx, q, limit)
		return err
	})
	if err != nil {
		return nil, classify(s.path, "search", err)
	}
	return hits, nil
}

type hitRow struct {
	Hit
	doc int64
}

func search(ctx context.Context, tx *sql.Tx, q Query, limit int) ([]Hit, error) {
	where, args := q.filters()
	args = append(args, sql.Named("limit", limit))
	columns := `t.id, t.conversation_id, ` + clipped("t.query") + `, t.mode, t.status, t.tool, t.tool_family, t.confidence,
		t.grounded, t.created_at, ` + ratingColumns
	var query string
	if match := q.match(); match != "" {
		args = append(args, sql.Named("match", match), sql.Named("cap", rankedMatches))
		perSource := func(source, table, alias, content string) string {
			// Filters need the turn (and its rating) of every match.
			filter := ""
			if q.filtered() {
				filter = ` CROSS JOIN turns t ON t.id = ` + alias + `.turn_id LEFT JOIN ratings r ON r.turn_id = t.id`
			}
			return `SELECT * FROM (
				SELECT ` + source + `, ` + alias + `.id, ` + alias + `.turn_id, ` + bm25Name + `(matchinfo(` + table + `, 'pcnalx'))
				FROM ` + table + ` CROSS JOIN ` + content + ` ` + alias + ` ON ` + alias + `.id = ` + table + `.docid` + filter + `
				WHERE ` + table + ` MATCH :match AND ` + where + `
				ORDER BY ` + table + `.docid DESC LIMIT :cap)`
		}
		query = `WITH hits (source, doc, turn_id, score) AS MATERIALIZED (
				` + perSource("m.role", "messages_fts", "m", "messages") + `
				UNION ALL
				` + perSource("'tool'", "tool_calls_fts", "c", "tool_calls") + `
			)
			SELECT h.source, h.doc, max(h.score) AS best, ` + columns + `
			FROM hits h JOIN turns t ON t.id = h.turn_id LEFT JOIN ratings r ON r.turn_id = t.id
			GROUP BY t.id ORDER BY best DESC, t.created_at DESC, t.id DESC LIMIT :limit`
	} else {
		query = `SELECT 'turn', 0, 0.0, ` + columns + `
			FROM turns t LEFT JOIN ratings r ON r.turn_id = t.id
			WHERE ` + where + ` ORDER BY t.created_at DESC, t.id DESC LIMIT :limit`
	}
	var found []hitRow
	err := eachRow(ctx, tx, query, args, func(rows *sql.Rows) error {
		var h hitRow
		var confidence sql.NullFloat64
		var started int64
		var r ratingRow
		err := rows.Scan(&h.Source, &h.doc, &h.Score, &h.TurnID, &h.ConversationID, &h.Query, &h.Mode, &h.Status,
			&h.Tool, &h.ToolFamily, &confidence, &h.Grounded, &started, &r.score, &r.wrong, &r.wanted, &r.comment, &r.rated)
		if err != nil {
			return err
		}
		h.Confidence = confidence.Float64
		h.Started = fromUnixMS(started)
		h.Rating = r.rating(h.TurnID)
		found = append(found, h)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := addSnippets(ctx, tx, q.match(), found); err != nil {
		return nil, err
	}
	out := make([]Hit, len(found))
	for i, h := range found {
		out[i] = h.Hit
	}
	return out, nil
}

// filters is the WHERE clause (over turns t and ratings r) for q's
// filters, with its named arguments.
func (q Query) filters() (string, []any) {
	conds := []string{"1"}
	var args []any
	arg := func(v any) string {
		name := fmt.Sprintf("f%d", len(args))
		args = append(args, sql.Named(name, v))
		return ":" + name
	}
	if len(q.Tools) > 0 {
		var alts []string
		for _, tool := range q.Tools {
			p := arg(tool)
			alts = append(alts, "t.tool = "+p+" COLLATE NOCASE OR t.tool_family = "+p+" COLLATE NOCASE")
		}
		conds = append(conds, "("+strings.Join(alts, " OR ")+")")
	}
	if len(q.Modes) > 0 {
		var in []string
		for _, m := range q.Modes {
			in = append(in, arg(string(m)))
		}
		conds = append(conds, "t.mode IN ("+strings.Join(in, ", ")+")")
	}
	if len(q.Ratings) > 0 {
		var alts []string
		for _, r := range q.Ratings {
			switch r {
			case RatingLow:
				alts = append(alts, "r.score < 0")
			case RatingHigh:
				alts = append(alts, "r.score > 0")
			case RatingWrong:
				alts = append(alts, "r.wrong_tool = 1")
			}
		}
		conds = append(conds, "("+strings.Join(alts, " OR ")+")")
	}
	for _, c := range q.Conf {
		switch c.Op {
		case "<", "<=", ">", ">=":
			conds = append(conds, "t.confidence "+c.Op+" "+arg(c.Value))
		}
	}
	if !q.Since.IsZero() {
		conds = append(conds, "t.created_at >= "+arg(unixMS(q.Since)))
	}
	if !q.Before.IsZero() {
		conds = append(conds, "t.created_at < "+arg(unixMS(q.Before)))
	}
	return strings.Join(conds, " AND "), args
}

// addSnippets fills each hit's snippet: SQLite's snippet() around the
// matches for full-text hits, the query itself for filter-only hits.
func addSnippets(ctx context.Context, tx *sql.Tx, match string, hits []hitRow) error {
	byTable := map[string][]int{}
	for i, h := range hits {
		switch h.Source {
		case "user", "assistant":
			byTable["messages_fts"] = append(byTable["messages_fts"], i)
		case "tool":
			byTable["tool_calls_fts"] = append(byTable["tool_calls_fts"], i)
		default:
			hits[i].Snippet = truncateRunes(oneLine(h.Query), 120)
		}
	}
	for table, idx := range byTable {
		at := map[int64][]int{}
		args := []any{sql.Named("match", match)}
		var in []string
		for _, i := range idx {
			at[hits[i].doc] = append(at[hits[i].doc], i)
			name := fmt.Sprintf("d%d", len(in))
			args = append(args, sql.Named(name, hits[i].doc))
			in = append(in, ":"+name)
		}
		query := fmt.Sprintf(`SELECT docid, snippet(%[1]s, char(2), char(3), '…', -1, %[2]d)
			FROM %[1]s WHERE %[1]s MATCH :match AND docid IN (%[3]s)`, table, snippetTokens, strings.Join(in, ", "))
		err := eachRow(ctx, tx, query, args, func(rows *sql.Rows) error {
			var doc int64
			var snippet string
			if err := rows.Scan(&doc, &snippet); err != nil {
				return err
			}
			text, marks := highlights(snippet)
			for _, i := range at[doc] {
				hits[i].Snippet, hits[i].Highlights = text, marks
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// highlights removes snippet()'s markers and returns where they were.
func highlights(snippet string) (string, []Highlight) {
	var b strings.Builder
	marks := []Highlight{}
	start := -1
	for i := 0; i < len(snippet); i++ {
		switch snippet[i] {
		case markStart[0]:
			start = b.Len()
		case markEnd[0]:
			if start >= 0 && b.Len() > start {
				marks = append(marks, Highlight{start, b.Len()})
			}
			start = -1
		default:
			b.WriteByte(snippet[i])
		}
	}
	return b.String(), marks
}
