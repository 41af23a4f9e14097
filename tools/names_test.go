package tools

import (
	"regexp"
	"strings"
	"testing"
)

// The byte-by-byte name checks accept exactly what the patterns do.
func TestNamePatterns(t *testing.T) {
	t.Parallel()
	tool, param := regexp.MustCompile(ToolNamePattern), regexp.MustCompile(ParamNamePattern)
	cases := []string{"", "a", "A9", "9a", "_x", ".x", "-x", "a.b-c_d", "a b", "a\n", "é", "get.weather", "x$", strings.Repeat("a", 64), strings.Repeat("a", 65),
		"a" + strings.Repeat(".", 63), "user.id", "file-path", "Ünïcode", "a/b", "a:b", "0", "_"}
	for c := range 256 {
		cases = append(cases, string(rune(c)), "a"+string(rune(c)), string([]byte{byte(c)}), "a"+string([]byte{byte(c)}))
	}
	for _, s := range cases {
		if got, want := isToolName(s), tool.MatchString(s); got != want {
			t.Errorf("isToolName(%q) = %v, pattern says %v", s, got, want)
		}
		if got, want := isParamName(s), param.MatchString(s); got != want {
			t.Errorf("isParamName(%q) = %v, pattern says %v", s, got, want)
		}
	}
}
