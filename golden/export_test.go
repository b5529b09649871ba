package golden

// SetTestHookMidWrite sets a hook run after half of a recording's bytes
// are written to its temporary file, for the killed-mid-write test.
func SetTestHookMidWrite(f func()) { testHookMidWrite = f }

// AssembleStream is assembleStream over a stream's bytes, for the tests of
// stream assembly: api is "chat", "responses" or "messages".
func AssembleStream(api string, stream []byte) ([]byte, error) {
	return assembleStream(api, splitEvents(stream, func(s string) string { return s }))
}

// SetTestNoJournal turns journaling off (true) or on, for the benchmark
// that measures what it costs against a Save at the end only.
func SetTestNoJournal(off bool) { testNoJournal = off }
