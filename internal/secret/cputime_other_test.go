//go:build !unix

package secret_test

import "time"

// cpuTime is the CPU time the process has used: not known here.
func cpuTime() time.Duration { return -1 }
