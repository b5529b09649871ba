//go:build !race

package hostile

// Race reports that the binary runs under the race detector, whose
// memory and time are no measure of a child's.
const Race = false
