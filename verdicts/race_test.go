//go:build race

package verdicts

// raceEnabled: the race detector slows the differential test about
// twentyfold, so it runs fewer answers.
const raceEnabled = true
