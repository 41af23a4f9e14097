package survey

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/gear-chat/gear/store"
)

// The study's two phases, as in the paper: the plain chatbot first, then
// gear.
const (
	PhaseBaseline = "baseline"
	PhaseGear     = "gear"
)

// PhaseNone stands for the conversations held outside a study where
// figures are counted by phase.
const PhaseNone = "none"

// PhaseOf is the phase a conversation was held in: its recorded study
// phase, or PhaseNone.
func PhaseOf(c store.Conversation) string {
	if c.StudyPhase == "" {
		return PhaseNone
	}
	return c.StudyPhase
}

// PhaseDays is how long the paper ran each phase.
const PhaseDays = 14

// SettingPhaseStarted records when the current phase began (RFC 3339).
// The participant id and the phase themselves are store.SettingParticipantID
// and store.SettingStudyPhase, which the store copies onto every new
// conversation.
const SettingPhaseStarted = "study_phase_started"

// Settings is the part of the store the study reads and writes;
// *store.Store provides it.
type Settings interface {
	Setting(ctx context.Context, key string) (string, bool, error)
	SetSetting(ctx context.Context, key, value string) error
}

// Study is where this installation stands in a study.
type Study struct {
	Participant string `json:"participant_id"`
	// Phase is PhaseBaseline, PhaseGear or "" (no study running).
	Phase   string    `json:"phase"`
	Started time.Time `json:"phase_started"`
}

// ParsePhase reads "baseline" or "gear" (any case).
func ParsePhase(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case PhaseBaseline:
		return PhaseBaseline, nil
	case PhaseGear:
		return PhaseGear, nil
	}
	return "", fmt.Errorf("phase %q: want baseline or gear", s)
}

// NewParticipantID makes a random participant id: "p-" and ten hex
// digits. It identifies the installation, not the person.
func NewParticipantID() (string, error) {
	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("participant id: %w", err)
	}
	return "p-" + hex.EncodeToString(b[:]), nil
}

// ParticipantID returns the participant id, making and saving a random one
// the first time.
func ParticipantID(ctx context.Context, st Settings) (string, error) {
	id, ok, err := st.Setting(ctx, store.SettingParticipantID)
	if err != nil {
		return "", err
	}
	if ok && strings.TrimSpace(id) != "" {
		return id, nil
	}
	if id, err = NewParticipantID(); err != nil {
		return "", err
	}
	return id, st.SetSetting(ctx, store.SettingParticipantID, id)
}

// checkParticipantID refuses ids that would be awkward in a report or a
// file name.
func checkParticipantID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("participant id %q: want 1 to 64 letters, digits, '-' or '_'", id)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("participant id %q: want 1 to 64 letters, digits, '-' or '_'", id)
		}
	}
	return nil
}

// StartPhase begins a phase: it keeps the participant id (making one
// when there is none, or setting participant when given) and records the
// phase and when it started. Starting the phase already running changes
// nothing and reports changed false.
func StartPhase(ctx context.Context, st Settings, phase, participant string, now time.Time) (s Study, changed bool, err error) {
	if phase, err = ParsePhase(phase); err != nil {
		return Study{}, false, err
	}
	if participant != "" {
		if err := checkParticipantID(participant); err != nil {
			return Study{}, false, err
		}
		if err := st.SetSetting(ctx, store.SettingParticipantID, participant); err != nil {
			return Study{}, false, err
		}
	}
	current, err := Current(ctx, st)
	if err != nil {
		return Study{}, false, err
	}
	if current.Participant == "" {
		if current.Participant, err = ParticipantID(ctx, st); err != nil {
			return Study{}, false, err
		}
	}
	if current.Phase == phase {
		return current, false, nil
	}
	started := now.UTC().Truncate(time.Second)
	if err := st.SetSetting(ctx, store.SettingStudyPhase, phase); err != nil {
		return Study{}, false, err
	}
	if err := st.SetSetting(ctx, SettingPhaseStarted, started.Format(time.RFC3339)); err != nil {
		return Study{}, false, err
	}
	return Study{Participant: current.Participant, Phase: phase, Started: started}, true, nil
}

// StopPhase ends the study phase running, if any: gear answers in chat
// mode by default again. The participant id stays, so a later phase is
// the same person's. It returns the phase that was running (stopped false
// when none was).
func StopPhase(ctx context.Context, st Settings) (was Study, stopped bool, err error) {
	was, err = Current(ctx, st)
	if err != nil || was.Phase == "" {
		return was, false, err
	}
	if err := st.SetSetting(ctx, store.SettingStudyPhase, ""); err != nil {
		return Study{}, false, err
	}
	if err := st.SetSetting(ctx, SettingPhaseStarted, ""); err != nil {
		return Study{}, false, err
	}
	return was, true, nil
}

// Current reads the study's settings; nothing is written.
func Current(ctx context.Context, st Settings) (Study, error) {
	var s Study
	var err error
	if s.Participant, _, err = st.Setting(ctx, store.SettingParticipantID); err != nil {
		return Study{}, err
	}
	if s.Phase, _, err = st.Setting(ctx, store.SettingStudyPhase); err != nil {
		return Study{}, err
	}
	started, ok, err := st.Setting(ctx, SettingPhaseStarted)
	if err != nil {
		return Study{}, err
	}
	if ok {
		s.Started, _ = time.Parse(time.RFC3339, started)
	}
	return s, nil
}

// ModeFor is the mode gear answers in by default during a phase: the
// baseline phase is the comparison chatbot (no tools), anything else is
// chat. A participant can still pick another mode for a turn; the turn's
// recorded mode is what the report compares.
func ModeFor(phase string) store.Mode {
	if phase == PhaseBaseline {
		return store.ModeBaseline
	}
	return store.ModeChat
}

// DefaultMode is the mode the chat window and gear ask should use for a
// line typed without a mode: ModeFor the phase in the store's settings.
func DefaultMode(ctx context.Context, st Settings) (store.Mode, error) {
	phase, _, err := st.Setting(ctx, store.SettingStudyPhase)
	if err != nil {
		return store.ModeChat, err
	}
	return ModeFor(phase), nil
}
