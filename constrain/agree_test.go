package constrain

import (
	"errors"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// agreementInputs is how many generated inputs the deterministic
// differential test runs: random bytes, valid calls, valid calls damaged
// (wrong names, wrong types, missing quotes, extra arguments, truncations,
// byte edits) and calls at the syntax's bounds.
const agreementInputs = 120000

func TestMachineAgreesWithParser(t *testing.T) {
	t.Parallel()
	m := testMachine(t)
	g := newGen(20260101, testSpecs())
	accepted, refused := 0, 0
	n := samples(agreementInputs)
	for i := 0; i < n; i++ {
		in := g.input()
		if i%5 == 0 {
			in = g.boundary()
			if g.chance(0.5) {
				in = g.mutate(in)
			}
		}
		if checkAgreement(t, m, in) {
			accepted++
		} else {
			refused++
		}
	}
	// Both verdicts must be well represented for the agreement to mean much.
	if accepted < n/5 || refused < n/5 {
		t.Fatalf("accepted %d, refused %d", accepted, refused)
	}
}

// checkAgreement fails the test when the machine and tools.Parse disagree
// on in, or when Validate's verdict or error is not what the machine says.
func checkAgreement(t testing.TB, m *Machine, in string) bool {
	t.Helper()
	_, perr := tools.Parse(in, m.lookup)
	machine := m.Accepts(in)
	if machine != (perr == nil) {
		t.Fatalf("machine says %v, parser says %v, on %q", machine, perr, in)
	}
	_, verr := m.Validate(in)
	var ae *tools.ArgsError
	if machine && errors.As(verr, &ae) {
		return true // the syntax is right; the tool's schema refuses the value
	}
	if (verr == nil) != machine {
		t.Fatalf("Validate says %v, machine %v, on %q", verr, machine, in)
	}
	if verr != nil {
		var e *Error
		if !errors.As(verr, &e) || e.Column < 1 {
			t.Fatalf("Validate error %T %v on %q", verr, verr, in)
		}
		var se *tools.SyntaxError
		var ue *tools.UnknownToolError
		if !errors.As(verr, &se) && !errors.As(verr, &ue) {
			t.Fatalf("Validate error does not unwrap to a tools error: %v", verr)
		}
	}
	return machine
}

// FuzzMachineAgreesWithParser: on any input the machine accepts exactly
// when tools.Parse does, and the machine refuses a prefix at the same byte
// whether fed at once or byte by byte.
func FuzzMachineAgreesWithParser(f *testing.F) {
	g := newGen(7, testSpecs())
	for i := 0; i < 40; i++ {
		f.Add(g.input())
		f.Add(g.boundary())
	}
	m := testMachine(f)
	f.Fuzz(func(t *testing.T, in string) {
		checkAgreement(t, m, in)
		s := m.Start()
		whole, okWhole := m.Advance(s, in)
		for i := 0; i < len(in); i++ {
			next, ok := m.Advance(s, in[i:i+1])
			if !ok {
				if okWhole {
					t.Fatalf("byte %d refused alone but the whole text advanced", i)
				}
				return
			}
			s = next
		}
		if !okWhole || s != whole {
			t.Fatal("byte-by-byte and whole advance differ")
		}
	})
}
