package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

// TestDeterministic: the models are the same bytes on every run and
// platform (CI recreates them each time; Ollama stores them by digest).
// Changing the generator changes these digests: update them on purpose.
func TestDeterministic(t *testing.T) {
	want := map[string]string{
		"chat":   "9aac8cde26bf98d22819a29d7f90b32d78e80c0d40d758826f9abefa2d14bc9e",
		"embed":  "683e05274c3d47b14b38cd40215cdbe3dd0269f253223242de9b141b2e2289f9",
		"repeat": "be874232e5b2473b658c4bead105cdd5591289d19b8b12a33d3d1b57683496fe",
	}
	for kind, digest := range want {
		var a, b bytes.Buffer
		if err := writeGGUF(&a, metadata(kind, buildVocab(nMerges)), weights(kind, buildVocab(nMerges))); err != nil {
			t.Fatal(err)
		}
		if err := writeGGUF(&b, metadata(kind, buildVocab(nMerges)), weights(kind, buildVocab(nMerges))); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(a.Bytes())
		if !bytes.Equal(a.Bytes(), b.Bytes()) || hex.EncodeToString(sum[:]) != digest {
			t.Errorf("%s.gguf: sha256 %x, want %s (or two runs differ)", kind, sum, digest)
		}
		if binary.LittleEndian.Uint32(a.Bytes()) != ggufMagic || binary.LittleEndian.Uint32(a.Bytes()[4:]) != ggufVersion {
			t.Errorf("%s.gguf: not a GGUF v3 header", kind)
		}
	}
}
