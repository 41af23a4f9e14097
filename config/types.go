package config

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"gopkg.in/yaml.v3"
)

// Secret holds an API key. Every way of printing it — fmt, JSON, YAML —
// shows "[redacted]"; only Reveal gives the key, for the HTTP header.
type Secret string

const redacted = "[redacted]"

// Reveal returns the key itself.
func (s Secret) Reveal() string { return string(s) }

// String redacts the key.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString redacts the key in %#v.
func (s Secret) GoString() string { return fmt.Sprintf("%q", s.String()) }

// MarshalJSON redacts the key.
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// MarshalYAML redacts the key.
func (s Secret) MarshalYAML() (any, error) { return s.String(), nil }

// Duration is a time.Duration written as "10s" or "1m30s" in YAML and JSON.
type Duration time.Duration

// D is the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

func (d Duration) String() string { return time.Duration(d).String() }

// UnmarshalYAML reads "10s"; a bare number is seconds.
func (d *Duration) UnmarshalYAML(node *yaml.Node) error {
	var s string
	if err := node.Decode(&s); err != nil {
		return err
	}
	v, err := ParseDuration(s)
	if err != nil {
		return fmt.Errorf("line %d: %w", node.Line, err)
	}
	*d = v
	return nil
}

// MarshalYAML writes "10s".
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// MarshalJSON writes "10s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// ParseDuration reads "10s", "250ms" or a bare number of seconds.
func ParseDuration(s string) (Duration, error) {
	if v, err := time.ParseDuration(s); err == nil {
		return Duration(v), nil
	}
	var secs float64
	if _, err := fmt.Sscanf(s, "%g", &secs); err == nil && fmt.Sprint(secs) == s &&
		!math.IsNaN(secs) && !math.IsInf(secs, 0) && math.Abs(secs) < math.MaxInt64/float64(time.Second) {
		return Duration(secs * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("duration %q: want a value like 10s or 500ms", s)
}
