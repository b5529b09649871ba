package judgeset

// Builds returns how many judges s has built: once per judge and variant
// looked up, whatever the provider.
func Builds(s *Set) int64 { return s.builds.Load() }
