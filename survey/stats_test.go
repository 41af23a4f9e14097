package survey_test

import (
	"reflect"
	"testing"

	"github.com/gear-chat/gear/survey"
)

// TestWilsonAgainstNewcombe checks the Wilson interval against the values
// published in Newcombe (1998), "Two-sided confidence intervals for the
// single proportion", Statistics in Medicine 17:857, Table I (method 3).
func TestWilsonAgainstNewcombe(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		x, n      int
		low, high float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	} {
		p := survey.NewProportion(tt.x, tt.n)
		if !within(p.Low, tt.low, 5e-5) || !within(p.High, tt.high, 5e-5) {
			t.Errorf("%d/%d: %.4f-%.4f, want %.4f-%.4f", tt.x, tt.n, p.Low, p.High, tt.low, tt.high)
		}
	}
	if p := survey.NewProportion(0, 0); p != (survey.Proportion{}) {
		t.Errorf("0/0 = %+v", p)
	}
}

// TestNewcombeDifference checks the hybrid score interval against
// Newcombe (1998), "Interval estimation for the difference between
// independent proportions", Statistics in Medicine 17:873, Table II
// (method 10).
func TestNewcombeDifference(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, na, b, nb int
		low, high    float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
	} {
		d := survey.Newcombe(survey.NewProportion(tt.a, tt.na), survey.NewProportion(tt.b, tt.nb))
		if !within(d.Low, tt.low, 5e-5) || !within(d.High, tt.high, 5e-5) {
			t.Errorf("%d/%d - %d/%d: %.4f to %.4f, want %.4f to %.4f", tt.a, tt.na, tt.b, tt.nb, d.Low, d.High, tt.low, tt.high)
		}
	}
	if d := survey.Newcombe(survey.NewProportion(3, 4), survey.Proportion{}); d.Value != 0 || d.Low != 0 || d.High != 0 {
		t.Errorf("difference with an empty side = %+v", d)
	}
}

func within(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

func TestDistribute(t *testing.T) {
	t.Parallel()
	d := survey.Distribute([]int{100, 0, 9, 10, 95, 50}, 0, 100)
	var bins [][3]int
	for _, b := range d.Histogram {
		bins = append(bins, [3]int{b.Low, b.High, b.Count})
	}
	want := [][3]int{{0, 9, 2}, {10, 19, 1}, {20, 29, 0}, {30, 39, 0}, {40, 49, 0}, {50, 59, 1}, {60, 69, 0},
		{70, 79, 0}, {80, 89, 0}, {90, 100, 2}}
	if !reflect.DeepEqual(bins, want) || d.N != 6 || d.Median != 30 || !within(d.Mean, 264.0/6, 1e-12) {
		t.Errorf("0-100: %+v", d)
	}
	d = survey.Distribute([]int{3, 7, 7}, 0, 10)
	if len(d.Histogram) != 11 || d.Histogram[7].Count != 2 || d.Median != 7 {
		t.Errorf("0-10: %+v", d)
	}
	if d = survey.Distribute(nil, 0, 10); d.N != 0 || d.Mean != 0 || len(d.Histogram) != 11 {
		t.Errorf("empty: %+v", d)
	}
}
