package tools

import (
	"reflect"
	"testing"
)

func TestSavedFiles(t *testing.T) {
	t.Parallel()
	got := SavedFiles("Image saved: /d/images/a.png\n(1x1 PNG)\nalso [image/png, 12 bytes saved to /d/mcp/b.png] and [audio, not saved: no data directory]")
	want := []string{"/d/images/a.png", "/d/mcp/b.png"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q", got)
	}
	if SavedFiles("nothing here") != nil {
		t.Error("found a file in plain text")
	}
}
