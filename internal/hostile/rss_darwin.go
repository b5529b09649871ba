package hostile

import (
	"os"
	"syscall"
)

// maxRSS is getrusage's ru_maxrss, which macOS gives in bytes.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

// peakRSS is unknown here: 0 (Run reads the child's rusage).
func peakRSS() int64 { return 0 }
