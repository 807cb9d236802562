package debate

import "sync"

// memo holds, for one debate, what every advocate would otherwise
// compute for itself: the heuristic measures of the variants, the shared
// prompt context, the rendering of earlier statements. The engine makes
// one per debate and hands it to every turn; advocates called outside the
// engine get none and compute as they go.
//
// A debate that is part of an orchestrated run has a parent: the run's
// memo, which holds what does not depend on which variants debate (each
// variant's own measures), so that the elimination rounds and the final
// measure a variant once between them.
type memo struct {
	mu      sync.Mutex
	entries map[string]*memoEntry
	parent  *memo
}

// root returns the memo of the whole run: the top-most parent.
func (m *memo) root() *memo {
	for m != nil && m.parent != nil {
		m = m.parent
	}
	return m
}

type memoEntry struct {
	once sync.Once
	val  any
	err  error
}

// memoGet returns the value for key, computing it once; concurrent callers
// for the same key wait for the first. A nil memo always computes.
func memoGet[T any](m *memo, key string, compute func() (T, error)) (T, error) {
	if m == nil {
		return compute()
	}
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[string]*memoEntry{}
	}
	e := m.entries[key]
	if e == nil {
		e = &memoEntry{}
		m.entries[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.val, e.err = compute() })
	v, _ := e.val.(T)
	return v, e.err
}
