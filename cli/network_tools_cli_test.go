package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/cli"
	"github.com/gear-chat/gear/tools/webget/webgettest"
)

// networkDown fails every request to connect.
const networkDown = webgettest.Down("dial tcp: connect: network is unreachable")

// The network tools, run with the network down, fail at run time: exit 1
// and one line that says what failed and what to do. Calls the user can
// fix exit 2 without touching the network.
func TestNetworkToolsCLI(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Date(2026, 7, 26, 12, 0, 0, 0, time.UTC) }
	tests := []struct {
		call string
		code int
		want []string // parts of the one line on stderr
	}{
		{`WeatherSearch("Copenhagen")`, cli.ExitFailure,
			[]string{"gear: WeatherSearch: weather: Open-Meteo", "unreachable: dial tcp: connect: network is unreachable; check the network or tools.weather."}},
		{`WeatherSearch("Copenhagen", "tomorrow")`, cli.ExitFailure, []string{"gear: WeatherSearch: weather: Open-Meteo", "unreachable"}},
		{`LocationSearch("Qxzyville Nowhere")`, cli.ExitFailure,
			[]string{"gear: LocationSearch: location: Open-Meteo geocoding unreachable: dial tcp: connect: network is unreachable; check the network or tools.weather.geocoding_url"}},
		{`WikiSearch("Ada Lovelace")`, cli.ExitFailure,
			[]string{"gear: WikiSearch: wiki: Wikipedia unreachable: dial tcp: connect: network is unreachable; check the network or tools.wiki.base_url"}},
		{`WeatherSearch()`, cli.ExitUsage, []string{"gear: ", "WeatherSearch"}},
		{`LocationSearch()`, cli.ExitUsage, []string{"gear: ", "LocationSearch"}},
		{`WikiSearch()`, cli.ExitUsage, []string{"gear: ", "WikiSearch"}},
		{`WeatherSearch("Copenhagen", "someday")`, cli.ExitUsage, []string{"gear: ", `expected a date like`}},
		{`WeatherSearch("Copenhagen", "2030-01-01")`, cli.ExitUsage,
			[]string{"gear: WeatherSearch: weather: 2030-01-01 is outside Open-Meteo's forecast range (2026-07-26 to 2026-08-10)"}},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.Run(context.Background(), []string{"tool", tt.call}, cli.Deps{
				Stdout: &stdout, Stderr: &stderr, HTTP: &http.Client{Transport: networkDown}, Now: now,
			})
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			line := stderr.String()
			if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
				t.Errorf("stderr is not one line: %q", line)
			}
			if strings.Contains(line, "goroutine") || strings.Contains(line, "panic") {
				t.Errorf("stderr shows a crash: %q", line)
			}
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("stderr %q\nwant it to contain %q", line, w)
				}
			}
		})
	}
}

// A place the embedded gazetteer knows needs no network.
func TestLocationSearchOffline(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"tool", `LocationSearch("Copenhagen")`}, cli.Deps{
		Stdout: &stdout, Stderr: &stderr, HTTP: &http.Client{Transport: networkDown},
	})
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"Copenhagen, Denmark\n", "\nCountry: Denmark (DK)\n", "\nTime zone: Europe/Copenhagen\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout %q\nwant it to contain %q", stdout.String(), want)
		}
	}
}

func TestNetworkToolJSONError(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"tool", "--json", `WikiSearch("Ada Lovelace")`}, cli.Deps{
		Stdout: &stdout, Stderr: &stderr, HTTP: &http.Client{Transport: networkDown},
	})
	if code != cli.ExitFailure {
		t.Errorf("exit %d, want %d", code, cli.ExitFailure)
	}
	var rec struct {
		Tool  string            `json:"tool"`
		Args  map[string]string `json:"args"`
		Error string            `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rec); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
	if rec.Tool != "WikiSearch" || rec.Args["term"] != "Ada Lovelace" || !strings.Contains(rec.Error, "Wikipedia unreachable") {
		t.Errorf("record %+v", rec)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q, want nothing", stderr.String())
	}
}

// A configured wiki base URL is used, with gear's User-Agent.
func TestWikiSearchCLI(t *testing.T) {
	t.Parallel()
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "network", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	srv := webgettest.NewServer(t, cli.UserAgent,
		webgettest.Route{
			Path:    "/w/api.php",
			Query:   map[string]string{"action": "query", "list": "search", "srsearch": "anthropic", "format": "json", "srlimit": "5"},
			Replies: []webgettest.Reply{{Body: fixture("search_list_anthropic.json")}},
		},
		webgettest.Route{
			Path:    "/api/rest_v1/page/summary/Anthropic",
			Replies: []webgettest.Reply{{Body: fixture("summary_standard_fermats_last_theorem.json")}},
		},
	)
	config := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(config, []byte("tools:\n  wiki:\n    base_url: "+srv.URL+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"--config", config, "tool", `WikiSearch("anthropic")`}, cli.Deps{
		Stdout: &stdout, Stderr: &stderr, HTTP: srv.Client(),
	})
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// The recorded search and summary come from different sessions: the
	// summary served for the hit "Anthropic" is another page's.
	want := "Fermat's Last Theorem — theorem in number theory\n"
	if !strings.HasPrefix(stdout.String(), want) || !strings.HasSuffix(stdout.String(), "https://en.wikipedia.org/wiki/Fermat's_Last_Theorem\n") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}
