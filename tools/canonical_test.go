package tools

import (
	"strings"
	"testing"
)

func TestCanonicalHintsMustBeEnumValues(t *testing.T) {
	t.Parallel()
	params := []Param{{Name: "lang", Type: TypeEnum, Enum: []string{"ja", "Japanese"}}}
	ok := Hints{Params: map[string]ParamHint{"lang": {Canonical: map[string]string{"Japanese": "ja"}}}}
	if err := ok.Validate(params); err != nil {
		t.Error(err)
	}
	bad := Hints{Params: map[string]ParamHint{"lang": {Canonical: map[string]string{"Nihongo": "ja"}}}}
	if err := bad.Validate(params); err == nil || !strings.Contains(err.Error(), "both must be values of its enum") {
		t.Errorf("err %v", err)
	}
}
