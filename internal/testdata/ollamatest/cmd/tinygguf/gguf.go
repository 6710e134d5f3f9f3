package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"
)

// GGUF v3, the subset a llama model needs: little-endian, metadata
// key/values, tensor infos, then F32 tensor data aligned to 32 bytes.
// https://github.com/ggml-org/ggml/blob/master/docs/gguf.md

const (
	ggufMagic     = 0x46554747 // "GGUF" read as a little-endian uint32
	ggufVersion   = 3
	ggufAlignment = 32

	typeUint32  = 4
	typeFloat32 = 6
	typeBool    = 7
	typeString  = 8
	typeArray   = 9
	typeInt32   = 5

	ggmlTypeF32 = 0
)

// kv is one metadata entry; the value is uint32, float32, bool, string,
// []string, []float32 or []int32.
type kv struct {
	key   string
	value any
}

// tensor is one F32 tensor; dims are in GGUF order (innermost first).
type tensor struct {
	name string
	dims []uint64
	data []float32
}

type writer struct {
	b   bytes.Buffer
	err error
}

func (w *writer) u32(v uint32)  { _ = binary.Write(&w.b, binary.LittleEndian, v) }
func (w *writer) u64(v uint64)  { _ = binary.Write(&w.b, binary.LittleEndian, v) }
func (w *writer) i32(v int32)   { _ = binary.Write(&w.b, binary.LittleEndian, v) }
func (w *writer) f32(v float32) { w.u32(math.Float32bits(v)) }
func (w *writer) str(s string)  { w.u64(uint64(len(s))); w.b.WriteString(s) }
func (w *writer) pad(align int64) {
	for int64(w.b.Len())%align != 0 {
		w.b.WriteByte(0)
	}
}

func (w *writer) value(v any) {
	switch x := v.(type) {
	case uint32:
		w.u32(typeUint32)
		w.u32(x)
	case float32:
		w.u32(typeFloat32)
		w.f32(x)
	case bool:
		w.u32(typeBool)
		if x {
			w.b.WriteByte(1)
		} else {
			w.b.WriteByte(0)
		}
	case string:
		w.u32(typeString)
		w.str(x)
	case []string:
		w.u32(typeArray)
		w.u32(typeString)
		w.u64(uint64(len(x)))
		for _, s := range x {
			w.str(s)
		}
	case []float32:
		w.u32(typeArray)
		w.u32(typeFloat32)
		w.u64(uint64(len(x)))
		for _, f := range x {
			w.f32(f)
		}
	case []int32:
		w.u32(typeArray)
		w.u32(typeInt32)
		w.u64(uint64(len(x)))
		for _, i := range x {
			w.i32(i)
		}
	default:
		w.err = fmt.Errorf("gguf: unsupported value %T", v)
	}
}

// writeGGUF writes the file; keys are written in sorted order so the bytes
// do not depend on how the caller built the list.
func writeGGUF(out io.Writer, kvs []kv, tensors []tensor) error {
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].key < kvs[j].key })
	var w writer
	w.u32(ggufMagic)
	w.u32(ggufVersion)
	w.u64(uint64(len(tensors)))
	w.u64(uint64(len(kvs)))
	for _, e := range kvs {
		w.str(e.key)
		w.value(e.value)
	}
	var offset uint64
	for _, t := range tensors {
		n := uint64(1)
		for _, d := range t.dims {
			n *= d
		}
		if n != uint64(len(t.data)) {
			return fmt.Errorf("gguf: tensor %s has %d values for dims %v", t.name, len(t.data), t.dims)
		}
		w.str(t.name)
		w.u32(uint32(len(t.dims)))
		for _, d := range t.dims {
			w.u64(d)
		}
		w.u32(ggmlTypeF32)
		w.u64(offset)
		offset += n * 4
		offset = (offset + ggufAlignment - 1) / ggufAlignment * ggufAlignment
	}
	w.pad(ggufAlignment)
	for _, t := range tensors {
		for _, f := range t.data {
			w.f32(f)
		}
		w.pad(ggufAlignment)
	}
	if w.err != nil {
		return w.err
	}
	_, err := out.Write(w.b.Bytes())
	return err
}
