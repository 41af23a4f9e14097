package norm

import "testing"

func TestKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"São Paulo", "sao paulo"},
		{"  NEW   york ", "new york"},
		{"Ust-Nera", "ust nera"},
		{"America/Port_of_Spain", "america port of spain"},
		{"St. John's", "st johns"},
		{"Saint John’s", "st johns"},
		{"Nuku'alofa", "nukualofa"},
		{"Zürich", "zurich"},
		{"Łódź", "lodz"},
		{"Straße", "strasse"},
		{"Ærøskøbing", "aeroskobing"},
		{"İstanbul", "istanbul"},
		{"GMT-8", "gmt 8"},
		{"'quoted'", "quoted"},
		{"", ""},
		{"-/_", ""},
	}
	for _, tt := range tests {
		if got := Key(tt.in); got != tt.want {
			t.Errorf("Key(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokensSpans(t *testing.T) {
	text := "in São Paulo, St. John's!"
	toks := Tokens(text, nil)
	want := []string{"in", "São", "Paulo", "St", "John's"}
	if len(toks) != len(want) {
		t.Fatalf("Tokens(%q) = %+v", text, toks)
	}
	for i, tok := range toks {
		if text[tok.Start:tok.End] != want[i] {
			t.Errorf("token %d spans %q; want %q", i, text[tok.Start:tok.End], want[i])
		}
	}
}
