// Command tinygguf writes the tiny llama-architecture GGUF models that the
// real-server tests load into Ollama (see .ci/ollama.sh), plus a Modelfile
// for each. No weights can be downloaded in CI, so the project makes its
// own: 2 layers, hidden 64, 4 heads, feed-forward 128, F32 weights from a
// fixed seed, a byte-level BPE vocabulary with ChatML specials. The text
// they produce is noise; with `format` set to a JSON schema the server
// constrains sampling, so answers are schema-shaped JSON — what the judge's
// protocol path needs. The output is deterministic byte for byte.
//
//	go run ./internal/testdata/ollamatest/cmd/tinygguf -dir DIR
//
// writes DIR/{chat,embed,repeat}.gguf and DIR/{chat,embed,repeat}.Modelfile.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// Shape of every tiny model.
const (
	nLayer   = 2
	nEmbd    = 64
	nHead    = 4
	nFF      = 128
	nCtx     = 32768
	nMerges  = 300
	seedBase = 0x6d656d7472616365 // "memtrace"
)

// modelfile is the ChatML Modelfile; %s is the GGUF file name.
// num_thread 1: on a 2-core machine the default thread count made one
// 100-token answer take seconds instead of milliseconds.
const modelfile = `FROM ./%s
TEMPLATE """{{- range .Messages }}<|im_start|>{{ .Role }}
{{ .Content }}<|im_end|>
{{ end }}<|im_start|>assistant
"""
PARAMETER stop <|im_end|>
PARAMETER num_thread 1
`

func main() {
	dir := flag.String("dir", ".", "directory to write the models and Modelfiles into")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fail(err)
	}
	v := buildVocab(nMerges)
	for _, kind := range []string{"chat", "embed", "repeat"} {
		var buf bytes.Buffer
		if err := writeGGUF(&buf, metadata(kind, v), weights(kind, v)); err != nil {
			fail(err)
		}
		name := kind + ".gguf"
		if err := os.WriteFile(filepath.Join(*dir, name), buf.Bytes(), 0o644); err != nil {
			fail(err)
		}
		mf := fmt.Sprintf(modelfile, name)
		if err := os.WriteFile(filepath.Join(*dir, kind+".Modelfile"), []byte(mf), 0o644); err != nil {
			fail(err)
		}
		fmt.Printf("%s: %d bytes, %d tokens, %d merges\n", name, buf.Len(), len(v.tokens), len(v.merges))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tinygguf:", err)
	os.Exit(1)
}

func metadata(kind string, v *vocabulary) []kv {
	kvs := []kv{
		{"general.architecture", "llama"},
		{"general.name", "memtrace-tiny-" + kind},
		{"general.alignment", uint32(ggufAlignment)},
		{"general.file_type", uint32(0)}, // all F32
		{"llama.context_length", uint32(nCtx)},
		{"llama.embedding_length", uint32(nEmbd)},
		{"llama.block_count", uint32(nLayer)},
		{"llama.feed_forward_length", uint32(nFF)},
		{"llama.attention.head_count", uint32(nHead)},
		{"llama.attention.head_count_kv", uint32(nHead)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"llama.rope.dimension_count", uint32(nEmbd / nHead)},
		{"llama.rope.freq_base", float32(10000)},
		{"llama.vocab_size", uint32(len(v.tokens))},
		{"tokenizer.ggml.model", "gpt2"},
		{"tokenizer.ggml.pre", "default"},
		{"tokenizer.ggml.tokens", v.tokens},
		{"tokenizer.ggml.token_type", v.types},
		{"tokenizer.ggml.merges", v.merges},
		{"tokenizer.ggml.bos_token_id", uint32(v.id("<|endoftext|>"))},
		{"tokenizer.ggml.eos_token_id", uint32(v.id("<|im_end|>"))},
		{"tokenizer.ggml.padding_token_id", uint32(v.id("<|endoftext|>"))},
		{"tokenizer.ggml.add_bos_token", false},
	}
	if kind == "embed" {
		// Any pooling type makes Ollama list the model as embedding-only.
		kvs = append(kvs, kv{"llama.pooling_type", uint32(1)}) // mean
	}
	return kvs
}

// rng is splitmix64: tiny, and the same numbers on every platform and Go
// version.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// uniform is in [-1, 1).
func (r *rng) uniform() float32 { return float32(r.next()>>40)/float32(1<<23) - 1 }

func weights(kind string, v *vocabulary) []tensor {
	r := &rng{s: seedBase}
	nVocab := uint64(len(v.tokens))
	random := func(name string, scale float32, dims ...uint64) tensor {
		n := uint64(1)
		for _, d := range dims {
			n *= d
		}
		t := tensor{name: name, dims: dims, data: make([]float32, n)}
		for i := range t.data {
			t.data[i] = r.uniform() * scale
		}
		return t
	}
	ones := func(name string, n uint64) tensor {
		t := tensor{name: name, dims: []uint64{n}, data: make([]float32, n)}
		for i := range t.data {
			t.data[i] = 1
		}
		return t
	}
	inv := func(fanIn int) float32 { return float32(1 / math.Sqrt(float64(fanIn))) }
	repeat := kind == "repeat"

	var ts []tensor
	embd := random("token_embd.weight", 1, nEmbd, nVocab)
	if repeat {
		// Every token embeds to the same vector, and the blocks below add
		// nothing, so every position ends in the same state.
		for i := range embd.data {
			embd.data[i] = 1
		}
	}
	ts = append(ts, embd)
	for l := 0; l < nLayer; l++ {
		p := fmt.Sprintf("blk.%d.", l)
		ts = append(ts,
			ones(p+"attn_norm.weight", nEmbd),
			random(p+"attn_q.weight", inv(nEmbd), nEmbd, nEmbd),
			random(p+"attn_k.weight", inv(nEmbd), nEmbd, nEmbd),
			random(p+"attn_v.weight", inv(nEmbd), nEmbd, nEmbd),
			random(p+"attn_output.weight", inv(nEmbd), nEmbd, nEmbd),
			ones(p+"ffn_norm.weight", nEmbd),
			random(p+"ffn_gate.weight", inv(nEmbd), nEmbd, nFF),
			random(p+"ffn_up.weight", inv(nEmbd), nEmbd, nFF),
			random(p+"ffn_down.weight", inv(nFF), nFF, nEmbd),
		)
		if repeat {
			for _, t := range ts[len(ts)-9:] {
				if t.name == p+"attn_output.weight" || t.name == p+"ffn_down.weight" {
					clear(t.data)
				}
			}
		}
	}
	ts = append(ts, ones("output_norm.weight", nEmbd))
	out := random("output.weight", 1, nEmbd, nVocab)
	if repeat {
		// The final state is all ones, so a row of ones wins: the model
		// says "a" wherever the grammar lets it, and the server's repeat
		// limit cuts the stream.
		a := v.id("a")
		for i := 0; i < nEmbd; i++ {
			out.data[a*nEmbd+i] = 1
		}
	}
	return append(ts, out)
}
