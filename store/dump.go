package store

import (
	"encoding/json"
	"fmt"
)

// dumpFormatV1 is the export format of schemas 1 to 4.
const dumpFormatV1 = "gear-history/1"

// DecodeDump reads an export (gear history export --format json). An
// export from before schema 5 (gear-history/1) is brought up to date as
// migration 5 brings up a database: its turns get what their other fields
// say about whether grounding ran, the route's method, who chose the tool
// and who wrote the answer.
func DecodeDump(data []byte) (Dump, error) {
	var d Dump
	if err := json.Unmarshal(data, &d); err != nil {
		return Dump{}, fmt.Errorf("history export: %w", err)
	}
	switch d.Format {
	case DumpFormat:
	case dumpFormatV1:
		for i := range d.Conversations {
			c := &d.Conversations[i]
			for j := range c.Turns {
				upgradeV1(&c.Turns[j], c.Chat.Engine)
			}
		}
		d.Format = DumpFormat
	default:
		return Dump{}, fmt.Errorf("history export: format %q: want %s or %s", d.Format, DumpFormat, dumpFormatV1)
	}
	if d.Conversations == nil {
		d.Conversations = []ConversationDump{}
	}
	return d, nil
}

// upgradeV1 is migrations/0005_turn_provenance.sql for one exported turn;
// the migration's tests check the two agree.
func upgradeV1(t *Turn, chatEngine string) {
	recorded := t.RouteBy
	switch {
	case recorded == "combined":
		t.RouteBy = RouteByDecisive
	case t.Route != RouteUndecided && recorded == "":
		t.RouteBy = RouteByUser
		if t.Mode == ModeDirect && t.Emission != EmissionExact {
			t.RouteBy = RouteByMode
		}
	}
	// In gear-history/1, Grounded meant a confidence was recorded.
	t.Grounded = t.Grounded || recorded != "" || len(t.Grounding) > 0
	switch {
	case t.Tool == "":
		t.ChosenBy = ""
	case t.Emission == EmissionExact:
		t.ChosenBy = ChosenByCall
	case t.Mode == ModeChat && t.Route == RouteTool && recorded == "":
		t.ChosenBy = ChosenByUser
	default:
		t.ChosenBy = ChosenByGrounding
	}
	ran, rejected := false, false
	for _, c := range t.Calls {
		if c.Check == CallRejected {
			rejected = true
		} else {
			ran = true
		}
	}
	switch {
	case t.AnswerMessageID == 0 && t.Answer == "":
		t.AnsweredBy = ""
	case t.Mode == ModeDirect || chatEngine == EngineOffline:
		t.AnsweredBy = AnsweredByGear
		if ran {
			t.AnsweredBy = AnsweredByTool
		}
	case rejected && !ran:
		t.AnsweredBy = AnsweredByGear
	default:
		t.AnsweredBy = AnsweredByModel
	}
}
