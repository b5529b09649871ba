package judgefake

import "errors"

// errConnReset is the error a reset connection reads with.
var errConnReset = errors.New("connection reset by peer")
