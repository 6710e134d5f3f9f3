package importer_test

import (
	"memtrace/capture"
	"memtrace/importer"
)

// heldoutReadOptions are what a test tells the reader beside the path.
type heldoutReadOptions = importer.ReadOptions

func readHeldout(kind, path string, o heldoutReadOptions) ([]capture.StoredMemory, []capture.RecordError, error) {
	return importer.ReadStored(kind, path, o)
}
