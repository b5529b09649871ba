//go:build !linux && !darwin

package hostile

import "os"

// maxRSS is unknown here: 0.
func maxRSS(*os.ProcessState) int64 { return 0 }

// peakRSS is unknown here: 0 (Run reads the child's rusage).
func peakRSS() int64 { return 0 }
