package tools

import "testing"

func TestQualifiedName(t *testing.T) {
	t.Parallel()
	cases := []struct {
		server, tool, want string
		fails              bool
	}{
		{"everything", "echo", "everything.echo", false},
		{"GitHub", "create_issue", "github.create_issue", false},
		{"my_server", "get.thing", "myserver.get_thing", false},
		{"fs", "read file (v2)", "fs.read_file_v2", false},
		{"ümlaut", "x", "mlaut.x", false},
		{"", "x", "", true},
		{"srv", "..", "", true},
		{"s", string(make([]byte, 70)), "", true},
		{"server-with-a-long-name", "a_tool_name_that_makes_the_whole_longer_than_64", "", true},
	}
	for _, c := range cases {
		got, err := QualifiedName(c.server, c.tool)
		if (err != nil) != c.fails || got != c.want {
			t.Errorf("QualifiedName(%q, %q) = %q, %v; want %q (fails %v)", c.server, c.tool, got, err, c.want, c.fails)
		}
	}
}

func TestEffectReadOnly(t *testing.T) {
	t.Parallel()
	for e, want := range map[Effect]bool{EffectReadOnly: true, EffectWrites: false, EffectCosts: false, "": false} {
		if e.ReadOnly() != want {
			t.Errorf("%q.ReadOnly() = %v", e, !want)
		}
	}
	if Effect("maybe").Known() {
		t.Error("an unknown effect is known")
	}
}
