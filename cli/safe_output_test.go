package cli_test

import (
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/survey/surveytest"
)

// A participant's database is untrusted input for the researcher: a
// participant id holding a formula, a C1 control and a bidi override
// reaches neither a spreadsheet as a formula nor a terminal raw.
func TestReportOutputsAreSafeFromParticipantData(t *testing.T) {
	t.Parallel()
	paths := surveytest.Write(t, t.TempDir(), 2)
	const hostile = "=HYPERLINK(\"http://evil.example\")\u0085\u202eexe.txt"
	db, err := sql.Open("sqlite3", paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE conversations SET participant_id = ?`, `UPDATE settings SET value = ? WHERE key = 'participant_id'`} {
		if _, err := db.Exec(q, hostile); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	code, out, errText := studyGear(t, t.TempDir(), "", append([]string{"report", "--csv"}, paths...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rows {
		for _, cell := range r {
			if strings.ContainsAny(cell, "\u0085\u202e\x1b") || strings.HasPrefix(cell, "=") || strings.HasPrefix(cell, "@") {
				t.Errorf("unsafe cell %q", cell)
			}
			found = found || strings.HasPrefix(cell, `'=HYPERLINK`)
		}
		if len(r) == 4 && r[2] == "ratio" && strings.HasPrefix(r[3], "'") {
			t.Errorf("a number was quoted: %q", r)
		}
	}
	if !found {
		t.Errorf("the hostile participant id is not in the CSV, quoted:\n%s", out)
	}

	code, out, errText = studyGear(t, t.TempDir(), "", append([]string{"report", "--json"}, paths...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	if strings.ContainsAny(out, "\u0085\u202e") || !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u0085`) {
		t.Errorf("JSON holds the controls raw, or lost them")
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil || !strings.Contains(fmt.Sprint(v), hostile) {
		t.Errorf("the escaped JSON does not read back to the same data: %v", err)
	}
}
