//go:build !race

package verdicts

const raceEnabled = false
