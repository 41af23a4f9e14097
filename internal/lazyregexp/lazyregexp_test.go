package lazyregexp

import "testing"

func TestCompilesOnceOnFirstUse(t *testing.T) {
	t.Parallel()
	re := New(`^a+$`)
	first := re()
	if !first.MatchString("aaa") || first.MatchString("ab") {
		t.Fatalf("%v does not match as ^a+$", first)
	}
	if re() != first {
		t.Fatal("a second call compiled the pattern again")
	}
}

func TestBadPatternPanicsOnFirstUse(t *testing.T) {
	t.Parallel()
	re := New(`(`) // making it must not panic: only using it
	defer func() {
		if recover() == nil {
			t.Fatal("a pattern that does not compile did not panic on use")
		}
	}()
	re()
}
