package bridge

// MappingPanics is how many events the bridge could not show as they
// are because their mapping panicked; the harness fails every test in
// which it is not zero.
func (b *Bridge) MappingPanics() int64 { return b.mappingPanics.Load() }
