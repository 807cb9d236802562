package merge

import "strings"

// gramSet answers "might text contain this?" without scanning text: it
// holds one bit per hash of each run of four bytes in text, so a needle
// with a run whose bit is clear cannot stand in text. resolveConflicts
// tests every losing value against every change of its variant, most of
// which do not hold it; a probe per byte of the value replaces a scan of the change's
// text for each. A set bit proves nothing (hashes collide), so a yes is
// always confirmed by the search itself.
type gramSet struct {
	bits  []uint64
	shift uint // 32 − log2 of the bit count
}

// gramLen is the run length hashed: short enough for the values worth
// filtering ("64 KiB", a sentence), long enough to be selective.
const gramLen = 4

// newGramSet indexes text, at about one set bit in eight.
func newGramSet(text string) gramSet {
	g := sizedGramSet(len(text))
	g.add(text)
	return g
}

// sizedGramSet is an empty gramSet for about n bytes of text.
func sizedGramSet(n int) gramSet {
	logBits := uint(9)
	for 1<<logBits < 8*n && logBits < 24 {
		logBits++
	}
	return gramSet{bits: make([]uint64, 1<<(logBits-6)), shift: 32 - logBits}
}

// add sets the bits of text's runs. A set holding several texts may hold
// a needle none of them does (a run of each), never the reverse: it only
// ever rules texts out.
func (g gramSet) add(text string) {
	var v uint32
	for i := 0; i < len(text); i++ {
		v = v<<8 | uint32(text[i])
		if i >= gramLen-1 {
			h := g.hash(v)
			g.bits[h>>6] |= 1 << (h & 63)
		}
	}
}

// gramBlock is how many consecutive changes of a variant share a block
// filter in resolveConflicts.
const gramBlock = 64

// blockGrams returns a gramSet for each run of size changes of list
// (indexes into changes), holding the runs of all their texts: a
// losing value is probed once per block, and only the changes of the
// blocks that may hold it are probed one by one. Without it, each losing
// value probed every change of its variant — conflicts × changes, both
// growing with the documents.
func blockGrams(changes []Change, list []int, size int) []gramSet {
	out := make([]gramSet, 0, (len(list)+size-1)/size)
	for lo := 0; lo < len(list); lo += size {
		members := list[lo:min(lo+size, len(list))]
		n := 0
		for _, i := range members {
			n += len(changes[i].Source.Text)
		}
		g := sizedGramSet(n)
		for _, i := range members {
			g.add(changes[i].Source.Text)
		}
		out = append(out, g)
	}
	return out
}

func (g gramSet) hash(v uint32) uint32 {
	return (v * gramMul) >> g.shift
}

// gramMul is the multiplier of the hash: a run's product with it, shifted
// by a set's shift, is its bit there.
const gramMul = 0x9E3779B1

// gramProducts appends to buf the products of needle's runs with gramMul:
// every set's hashes of needle, before the shift. resolveConflicts tests
// one losing value against each change of its variant; the products are
// computed once for all of them.
func gramProducts(buf []uint32, needle string) []uint32 {
	var v uint32
	for i := 0; i < len(needle); i++ {
		v = v<<8 | uint32(needle[i])
		if i >= gramLen-1 {
			buf = append(buf, v*gramMul)
		}
	}
	return buf
}

// mayContainProducts is mayContain(needle), given gramProducts(needle).
func (g gramSet) mayContainProducts(needle string, products []uint32) bool {
	if len(needle) < gramLen || g.bits == nil {
		return true
	}
	for _, p := range products {
		h := p >> g.shift
		if g.bits[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

// mayContain is false only when text cannot contain needle: some run of
// needle has no bit. It probes every run: variants are written from the
// same templates, so a sentence that is not in text often differs from
// one that is by a number only. A needle shorter than a run, and a
// gramSet never built, may be anywhere.
func (g gramSet) mayContain(needle string) bool {
	if len(needle) < gramLen || g.bits == nil {
		return true
	}
	var v uint32
	for i := 0; i < len(needle); i++ {
		v = v<<8 | uint32(needle[i])
		if i >= gramLen-1 {
			h := g.hash(v)
			if g.bits[h>>6]&(1<<(h&63)) == 0 {
				return false
			}
		}
	}
	return true
}

// mayStateLoser is false only when stateWinner(text, lose, …) must
// report that text does not state the losing value, g being text's
// gramSet: every way it finds the value needs text to contain either
// lose.Text or — for a value naming a number, outside its quote — the
// value itself.
func (g gramSet) mayStateLoser(lose ConflictValue) bool {
	return g.mayStateLoserProducts(lose, gramProducts(nil, lose.Text))
}

// mayStateLoserProducts is mayStateLoser, given gramProducts(lose.Text).
func (g gramSet) mayStateLoserProducts(lose ConflictValue, text []uint32) bool {
	if lose.Text != "" && g.mayContainProducts(lose.Text, text) {
		return true
	}
	if lose.Text != "" && lose.Value == lose.Text {
		return false
	}
	if strings.TrimSpace(lose.Value) == "" || !strings.ContainsAny(lose.Value, "0123456789") {
		return false
	}
	return g.mayContain(lose.Value)
}
