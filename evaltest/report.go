package evaltest

// reportState is what a T reports besides failures (see observe).
type reportState struct{}

func (r reportState) child() reportState { return r }

func (t *T) observeRepeat(label string, rep *Repetition, err error) {}
