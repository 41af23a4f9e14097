//go:build !race

package constrain

const raceEnabled = false
