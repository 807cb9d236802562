package diff

import (
	"slices"
	"strings"
)

// Dependency cycles: stated prerequisites that no execution order can
// satisfy, within a variant or across the variants together.

type edgeRef struct {
	to    string
	claim *Claim
}

type depGraph map[string][]edgeRef

func (g depGraph) add(e Edge, c *Claim) {
	for _, r := range g[e.From] {
		if r.to == e.To {
			return
		}
	}
	g[e.From] = append(g[e.From], edgeRef{e.To, c})
}

func detectCycles(in DetectInput) []Contradiction {
	var out []Contradiction
	whole := depGraph{}
	perVariant := make([]depGraph, len(in.Claims))
	for v := range in.Claims {
		perVariant[v] = depGraph{}
		for ci := range in.Claims[v] {
			c := &in.Claims[v][ci]
			for _, e := range c.Edges {
				perVariant[v].add(e, c)
				whole.add(e, c)
			}
		}
	}
	for _, g := range perVariant {
		for _, cyc := range g.cycles() {
			out = append(out, cycleContradiction(cyc))
		}
	}
	for _, cyc := range whole.cycles() {
		if oneVariant(cyc) {
			continue // already reported within that variant
		}
		out = append(out, cycleContradiction(cyc))
	}
	return out
}

// oneVariant reports whether every edge of the cycle could come from a
// single variant's own statements.
func oneVariant(cyc []cycleEdge) bool {
	v := cyc[0].claim.Variant
	for _, e := range cyc[1:] {
		if e.claim.Variant != v {
			return false
		}
	}
	return true
}

type cycleEdge struct {
	from, to string
	claim    *Claim
}

func cycleKey(cyc []cycleEdge) string {
	names := make([]string, len(cyc))
	for i, e := range cyc {
		names[i] = e.from
	}
	slices.Sort(names)
	return strings.Join(names, "|")
}

func cycleContradiction(cyc []cycleEdge) Contradiction {
	path := make([]string, 0, len(cyc)+1)
	for _, e := range cyc {
		path = append(path, e.from)
	}
	path = append(path, cyc[0].from)
	c := Contradiction{Kind: DependencyCycle, Subject: "dependency cycle " + strings.Join(path, " → "), Key: cycleKey(cyc),
		Impact: High, Reason: "the stated dependencies form a cycle, so no execution order satisfies them"}
	for _, e := range cyc {
		c.Claims = append(c.Claims, *e.claim)
	}
	sortClaims(c.Claims)
	return c
}

// cycles returns one cycle per strongly connected component that has one,
// starting from the component's smallest node, so the result does not
// depend on map order.
func (g depGraph) cycles() [][]cycleEdge {
	nodes := make([]string, 0, len(g))
	for n := range g {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	for _, n := range nodes {
		slices.SortFunc(g[n], func(a, b edgeRef) int { return strings.Compare(a.to, b.to) })
	}
	// Tarjan's algorithm, iterative over the sorted nodes.
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var comps [][]string
	next := 0
	var strong func(string)
	strong = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range g[v] {
			if _, ok := index[e.to]; !ok {
				strong(e.to)
				low[v] = min(low[v], low[e.to])
			} else if onStack[e.to] {
				low[v] = min(low[v], index[e.to])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				slices.Sort(comp)
				comps = append(comps, comp)
			}
		}
	}
	for _, n := range nodes {
		if _, ok := index[n]; !ok {
			strong(n)
		}
	}
	var out [][]cycleEdge
	for _, comp := range comps {
		in := map[string]bool{}
		for _, n := range comp {
			in[n] = true
		}
		if cyc := g.findCycle(comp[0], in); cyc != nil {
			out = append(out, cyc)
		}
	}
	slices.SortFunc(out, func(a, b []cycleEdge) int { return strings.Compare(cycleKey(a), cycleKey(b)) })
	return out
}

// findCycle walks from start inside the component until it returns to
// start, by depth-first search in sorted order.
func (g depGraph) findCycle(start string, in map[string]bool) []cycleEdge {
	visited := map[string]bool{}
	var path []cycleEdge
	var dfs func(string) bool
	dfs = func(v string) bool {
		visited[v] = true
		for _, e := range g[v] {
			if !in[e.to] {
				continue
			}
			path = append(path, cycleEdge{v, e.to, e.claim})
			if e.to == start {
				return true
			}
			if !visited[e.to] && dfs(e.to) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if dfs(start) {
		return path
	}
	return nil
}
