package mcp

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want Server
		err  string
	}{
		{in: "everything=npx -y @modelcontextprotocol/server-everything",
			want: Server{Name: "everything", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}}},
		{in: `fs=server --root "/tmp/a dir" 'x;rm -rf /'`,
			want: Server{Name: "fs", Command: "server", Args: []string{"--root", "/tmp/a dir", "x;rm -rf /"}}},
		{in: "http://localhost:3001/mcp", want: Server{Name: "localhost-3001", URL: "http://localhost:3001/mcp"}},
		{in: "https://api.example.com/mcp?key=1", want: Server{Name: "api-example-com", URL: "https://api.example.com/mcp?key=1"}},
		{in: "", err: "empty"},
		{in: "justaname", err: "want NAME=COMMAND"},
		{in: "x=", err: "want NAME=COMMAND"},
		{in: `x=cmd "open`, err: "unclosed"},
	} {
		got, err := ParseFlag(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseFlag(%q) err = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseFlag(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	env := func(k string) string { return map[string]string{"KEY": "k1", "B": "b"}[k] }
	if got, err := Expand("Bearer ${KEY}-${B} $KEY", env); err != nil || got != "Bearer k1-b $KEY" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := Expand("${NOPE} ${KEY}", env); err == nil || strings.Contains(err.Error(), "k1") || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("missing: %v (must name the variable, never another's value)", err)
	}
}

func TestDescribeHidesQuery(t *testing.T) {
	t.Parallel()
	s := Server{Name: "x", URL: "https://user:pw@h.example/mcp?api_key=secret"}
	if d := s.Describe(); strings.Contains(d, "secret") || strings.Contains(d, "pw") {
		t.Errorf("Describe = %q", d)
	}
}

func TestEnvironKeepsKeysAway(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret")
	t.Setenv("PATH", "/usr/bin")
	s := Server{Name: "x", Command: "srv", Env: map[string]string{"TOKEN": "${MY_TOKEN}"}}
	env, err := s.environ(func(k string) string { return map[string]string{"MY_TOKEN": "t1"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(env, "\n")
	if strings.Contains(joined, "sk-secret") || !strings.Contains(joined, "PATH=/usr/bin") || !strings.Contains(joined, "TOKEN=t1") {
		t.Errorf("environ:\n%s", joined)
	}
}
