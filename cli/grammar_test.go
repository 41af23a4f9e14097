package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gear-chat/gear/cli"
)

// grammarCLI runs the command line with no network and no configuration.
func grammarCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cli.Run(context.Background(), args, cli.Deps{Stdout: &out, Stderr: &errOut,
		Getenv: func(string) string { return "" }})
	return code, out.String(), errOut.String()
}

// grammarToolNames lists the library as gear tools --json does.
func grammarToolNames(t *testing.T) []string {
	t.Helper()
	code, out, errOut := grammarCLI(t, "tools", "--json")
	if code != cli.ExitOK {
		t.Fatalf("gear tools --json: exit %d: %s", code, errOut)
	}
	var specs []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(out), &specs); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		t.Fatal("empty library")
	}
	return names
}

func TestGrammarGBNFNamesEveryTool(t *testing.T) {
	t.Parallel()
	code, out, errOut := grammarCLI(t, "grammar", "--format", "gbnf")
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "root ::= ") {
		t.Fatalf("grammar does not start with the root rule: %.80q", out)
	}
	for _, name := range grammarToolNames(t) {
		if !strings.Contains(out, `"`+name+`"`) {
			t.Errorf("GBNF does not name %s", name)
		}
	}
}

func TestGrammarRegexAndSchema(t *testing.T) {
	t.Parallel()
	names := grammarToolNames(t)
	code, out, errOut := grammarCLI(t, "grammar", "--format", "regex", "--depth", "1")
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("regex: exit %d: %s", code, errOut)
	}
	re, err := regexp.Compile(`^(?:` + strings.TrimSuffix(out, "\n") + `)$`)
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []string{`Calculator(25% of 54,788)`, `{"tool": "Calculator", "args": {"expression": "2 + 4"}}`} {
		if !re.MatchString(call) {
			t.Errorf("regex refuses %s", call)
		}
	}
	code, out, errOut = grammarCLI(t, "grammar", "--format", "json-schema")
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("json-schema: exit %d: %s", code, errOut)
	}
	var schema struct {
		Type       string `json:"type"`
		Properties struct {
			Call struct {
				AnyOf []struct {
					Properties struct {
						Tool struct {
							Enum []string `json:"enum"`
						} `json:"tool"`
					} `json:"properties"`
				} `json:"anyOf"`
			} `json:"call"`
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(out), &schema); err != nil || schema.Type != "object" {
		t.Fatalf("schema: %v", err)
	}
	seen := map[string]bool{}
	for _, v := range schema.Properties.Call.AnyOf {
		seen[strings.Join(v.Properties.Tool.Enum, ",")] = true
	}
	for _, name := range names {
		if !seen[name] {
			t.Errorf("schema has no variant for %s", name)
		}
	}
}

func TestGrammarRefusesBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"grammar", "--format", "ebnf"},
		{"grammar", "--depth", "-1"},
		{"grammar", "--depth", "33"},
		{"grammar", "extra"},
	} {
		code, out, errOut := grammarCLI(t, args...)
		if code != cli.ExitUsage || out != "" || !strings.HasPrefix(errOut, "gear: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}
