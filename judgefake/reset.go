//go:build !plan9

package judgefake

import "syscall"

// errConnReset is the error a reset connection reads with.
var errConnReset error = syscall.ECONNRESET
