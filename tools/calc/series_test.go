package calc

import (
	"strings"
	"testing"
)

func TestSeriesAndDates(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		expr, want string
	}{
		{"sum_range(1, 100)", "5050"},
		{"sum_range(1, 1000)", "500500"},
		{"sum_range(-5, 15)", "105"},
		{"sum_range(1, 99, 2)", "2500"},
		{"sum_range(2, 50, 2)", "650"},
		{"sum_range(3, 30, 3)", "165"},
		{"sum_range(5, 7, 10)", "5"},
		{"sum_range(1, 10, 4)", "15"}, // 1 + 5 + 9
		{"sum_range(0.5, 2)", "2"},    // 0.5 + 1.5
		{"sum_range(1, 10^30)", "500000000000000000000000000000500000000000000000000000000000"},
		{"product_range(1, 8)", "40320"},
		{"product_range(3, 5)", "60"},
		{"product_range(-3, -1)", "-6"},
		{"product_range(-2, 3)", "0"},
		{"date(1970, 1, 1)", "0"},
		{"date(1969, 12, 31)", "-1"},
		{"date(2025, 7, 19) - date(2025, 3, 3)", "138"},
		{"days_between(date(2024, 2, 28), date(2024, 3, 1))", "2"},
		{"days_between(date(2025, 2, 28), date(2025, 3, 1))", "1"},
		{"days_between(date(2100, 2, 28), date(2100, 3, 1))", "1"},
		{"days_between(date(1947, 8, 15), date(1950, 1, 26))", "895"},
		{"days_between(date(2025, 1, 5), date(2025, 3, 30)) / 7", "12"},
		{"iso_date(date(2025, 3, 3) + 90)", "2025-06-01"},
		{"iso_date(date(2026, 1, 10) - 6 * 7)", "2025-11-29"},
		{"iso_date(date(2025, 1, 31) + 30)", "2025-03-02"},
		{"iso_date(date(2024, 2, 28) + 1)", "2024-02-29"},
		{"iso_date(0)", "1970-01-01"},
		{"iso_date(date(1, 1, 1))", "0001-01-01"},
		{"iso_date(date(9999, 12, 31))", "9999-12-31"},
		{"iso_date(date(2025, 3, 3) + 90) - date(2025, 3, 3)", "90"},
		{"sin(30 * pi / 180)", "0.5"},
		{"cos(60 * pi / 180)", "0.5"},
		{"tan(45 * pi / 180)", "1"},
		{"cos(90 * pi / 180)", "0"},
		{"sin(pi)", "0"},
		{"sin(0)", "0"},
	} {
		v, err := Eval(tt.expr)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.expr, got, tt.want)
		}
	}
}

func TestSeriesAndDatesErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		expr, want string
	}{
		{"sum_range(10, 1)", "larger than the last"},
		{"sum_range(1, 10, 0)", "step must be greater than 0"},
		{"sum_range(1)", "takes 2 or 3 arguments"},
		{"product_range(1.5, 3)", "whole numbers"},
		{"product_range(1, 100000)", "result too large"},
		{"date(2025, 2, 29)", "February has no day 29"},
		{"date(2025, 13, 1)", "is not a date"},
		{"date(0, 1, 1)", "is not a date"},
		{"date(2025, 1)", "takes 3 arguments"},
		{"days_between(1.5, 3)", "its arguments are dates"},
		{"iso_date(1.5)", "a whole number"},
		{"iso_date(date(9999, 12, 31) + 1)", "outside the years 1 to 9999"},
		{"iso_date(date(1, 1, 1) - 1)", "outside the years 1 to 9999"},
		{"iso_date(1, 2)", "takes 1 argument"},
		{"tan(90 * pi / 180)", "undefined"},
		{"sin(10^20)", "too large"},
		{"sin(1, 2)", "takes 1 argument"},
	} {
		_, err := Eval(tt.expr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one with %q", tt.expr, err, tt.want)
		}
	}
}
