package diff

import (
	"sync"
	"sync/atomic"
)

// fieldCache remembers, for the documents of one analysis, what reading
// fields derives from text alone: the fields of a source line, the
// normalised value of a raw value and the key of an item title. Variants
// of one artifact repeat most of their lines, table cells and titles, so
// each is read once however many documents hold it. Every function it
// stands for depends on nothing but its arguments, so a cached result is
// the result; cached slices are shared, and every reader only reads them
// (the fields of a line are copied before being placed). A nil cache
// computes every value.
type fieldCache struct {
	mu     sync.Mutex
	lines  map[string][]Field
	values map[fldValueArgs]fldValue
	items  map[string]*fldItemKey
	// classes holds fldClass by name and the two parts of the value it
	// reads.
	classes map[fldClassArgs]string
	size    sizeHint // fields per block of the documents read so far
}

type fldClassArgs struct {
	name  string
	kind  fldValueKind
	scale string
}

type fldValueArgs struct {
	raw     string
	bounded bool
	form    FieldForm
}

func newFieldCache() *fieldCache {
	return &fieldCache{lines: map[string][]Field{}, values: map[fldValueArgs]fldValue{}, items: map[string]*fldItemKey{},
		classes: map[fldClassArgs]string{}}
}

// labelledLine is fldLabelledLine(src).
func (fc *fieldCache) labelledLine(src string) []Field {
	if fc == nil || !hasColon(src) {
		return fldLabelledLine(src) // without a colon: nil, at once
	}
	fc.mu.Lock()
	fs, ok := fc.lines[src]
	fc.mu.Unlock()
	if ok {
		return fs
	}
	fs = fldLabelledLine(src)
	fc.mu.Lock()
	fc.lines[src] = fs
	fc.mu.Unlock()
	return fs
}

// normalise is normaliseFieldValue(raw, bounded, form).
func (fc *fieldCache) normalise(raw string, bounded bool, form FieldForm) fldValue {
	if fc == nil {
		return normaliseFieldValue(raw, bounded, form)
	}
	k := fldValueArgs{raw, bounded, form}
	fc.mu.Lock()
	v, ok := fc.values[k]
	fc.mu.Unlock()
	if ok {
		return v
	}
	v = normaliseFieldValue(raw, bounded, form)
	fc.mu.Lock()
	fc.values[k] = v
	fc.mu.Unlock()
	return v
}

// itemKey is newFldItemKey(item), shared: never change it in place.
func (fc *fieldCache) itemKey(item string) *fldItemKey {
	if fc == nil {
		k := newFldItemKey(item)
		return &k
	}
	fc.mu.Lock()
	k, ok := fc.items[item]
	fc.mu.Unlock()
	if ok {
		return k
	}
	nk := newFldItemKey(item)
	k = &nk
	fc.mu.Lock()
	if old, dup := fc.items[item]; dup {
		k = old // another document read it meanwhile: share one key
	} else {
		fc.items[item] = k
	}
	fc.mu.Unlock()
	return k
}

// class is fldClass(name, v), which reads of v its kind and scale only.
func (fc *fieldCache) class(name string, v fldValue) string {
	if fc == nil {
		return fldClass(name, v)
	}
	k := fldClassArgs{name, v.kind, v.scale}
	fc.mu.Lock()
	c, ok := fc.classes[k]
	fc.mu.Unlock()
	if ok {
		return c
	}
	c = fldClass(name, v)
	fc.mu.Lock()
	fc.classes[k] = c
	fc.mu.Unlock()
	return c
}

// sizeHint remembers how many results (claims, fields) the documents of
// one analysis gave per block, so that the next document sizes its slice
// once instead of growing it by doubling: variants of one artifact are
// alike, and the copies of growing made most of those slices'
// allocation. It only sets capacities, never what is found. A nil
// sizeHint knows nothing.
type sizeHint struct {
	per1024 atomic.Int64 // the most results per 1024 blocks seen so far
}

// capFor returns the capacity to give a document of blocks blocks: the
// largest rate seen, with a sixteenth to spare; 0 before any document.
func (h *sizeHint) capFor(blocks int) int {
	if h == nil {
		return 0
	}
	r := h.per1024.Load()
	if r == 0 {
		return 0
	}
	n := int(r * int64(blocks) / 1024)
	return n + n/16 + 1
}

// record notes that a document of blocks blocks gave n results.
func (h *sizeHint) record(n, blocks int) {
	if h == nil || blocks == 0 {
		return
	}
	r := int64(n) * 1024 / int64(blocks)
	for {
		old := h.per1024.Load()
		if r <= old || h.per1024.CompareAndSwap(old, r) {
			return
		}
	}
}
