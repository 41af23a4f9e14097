package offline

import (
	"fmt"
	"testing"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/builtin"
)

func TestZZDebug(t *testing.T) {
	var specs []tools.Spec
	for _, tl := range builtin.Tools(builtin.Options{}) {
		specs = append(specs, tl.Spec())
	}
	for _, lib := range [][]tools.Spec{specs[:6], specs} {
		e := New(Options{Tools: lib})
		for _, s := range []string{"what place were you born at", specs[5].Description} {
			n, w := e.features(e.analyze(s))
			fmt.Println(len(lib), s[:20], "=>", n, w)
		}
		v := e.vector(e.analyze("what place were you born at"))
		d := e.vector(e.analyze(specs[5].Description))
		var dot float64
		for i := range v {
			dot += float64(v[i] * d[i])
		}
		fmt.Println("dot", dot, len(e.lex.slots))
	}
}
