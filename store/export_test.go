package store

// SetVectorFileMin sets the size from which a load writes the vector file
// (tests use small stores) and returns the restore.
func SetVectorFileMin(n int) func() {
	old := vectorFileMin
	vectorFileMin = n
	return func() { vectorFileMin = old }
}
