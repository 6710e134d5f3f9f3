package importer_test

import (
	"memtrace/capture"
	"memtrace/importer"
)

// heldoutReadOptions are what a test tells the reader beside the path.
type heldoutReadOptions struct {
	Payloads string // mem0: the vector store's points (user_id)
	As       string // memory files: user, project
}

func readHeldout(kind, path string, o heldoutReadOptions) ([]capture.StoredMemory, []capture.RecordError, error) {
	return importer.ReadStored(kind, path)
}
