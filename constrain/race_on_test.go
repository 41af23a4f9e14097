//go:build race

package constrain

// raceEnabled: the tests run under the race detector.
const raceEnabled = true
