package store

// SetVectorFileMin sets the size from which a load writes the vector file
// (tests use small stores) and returns the restore.
func SetVectorFileMin(n int) func() {
	old := vectorFileMin
	vectorFileMin = n
	return func() { vectorFileMin = old }
}

// WaitVectorFile waits until the vector file a load wrote is in place.
func (db *DB) WaitVectorFile() { db.vecCommits.Wait() }
