package golden

// SetTestHookMidWrite sets a hook run after half of a recording's bytes
// are written to its temporary file, for the killed-mid-write test.
func SetTestHookMidWrite(f func()) { testHookMidWrite = f }
