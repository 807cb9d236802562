package scoring

import "strconv"

// Criterion is one binary criterion of the qualitative rubric.
type Criterion struct {
	ID        string `json:"id"`        // "CMP-1" … "RSK-5", "INV-1" … "INV-5"
	Dimension string `json:"dimension"` // the dimension's name, e.g. "Completeness"
	Number    int    `json:"number"`    // 1–5 within the dimension
	Text      string `json:"text"`      // the criterion's wording, shown to judges and in reports
}

// Dimension is a group of five criteria.
type Dimension struct {
	ID       string      `json:"id"`   // "CMP", "COR", "STR", "CLA", "RSK", "INV"
	Name     string      `json:"name"` // "Completeness", …
	Criteria []Criterion `json:"criteria"`
}

// Rubric is the additive binary rubric the qualitative layer applies: every
// criterion met scores one point, and qual_score is the points over the
// number of criteria.
type Rubric struct {
	Dimensions []Dimension `json:"dimensions"`
}

// Correctness is the ID of the dimension the second tiebreaker level counts.
const Correctness = "COR"

// Invariants is the ID of the optional sixth dimension, the one the floor
// rule applies to.
const Invariants = "INV"

func dimension(id, name string, texts ...string) Dimension {
	d := Dimension{ID: id, Name: name}
	for i, t := range texts {
		d.Criteria = append(d.Criteria, Criterion{ID: id + "-" + strconv.Itoa(i+1), Dimension: name, Number: i + 1, Text: t})
	}
	return d
}

// StandardRubric returns the 25 binary criteria, five per dimension:
// Completeness, Correctness, Structure, Clarity and Risk Coverage.
func StandardRubric() Rubric {
	return Rubric{Dimensions: []Dimension{
		dimension("CMP", "Completeness",
			"Covers all explicit requirements from source input",
			"Addresses edge cases and failure scenarios",
			"Includes dependencies and prerequisites",
			"Defines success/completion criteria",
			"Specifies what is explicitly out of scope"),
		dimension(Correctness, "Correctness",
			"No factual errors or hallucinated claims",
			"Technical approaches are feasible with stated constraints",
			"Terminology used consistently and accurately throughout",
			"No internal contradictions (cross-validated with IC metric)",
			"Claims supported by evidence or rationale within the document"),
		dimension("STR", "Structure",
			"Logical section ordering (prerequisites before dependents)",
			"Consistent hierarchy depth (no orphaned subsections)",
			"Clear separation of concerns between sections",
			"Navigation aids present (table of contents, cross-references, or index)",
			"Follows conventions of the artifact type"),
		dimension("CLA", "Clarity",
			"Unambiguous language (no 'should consider', 'might', 'as appropriate')",
			"Concrete rather than abstract (specific actions, not general principles)",
			"Each section has a clear purpose or can be summarized in one sentence",
			"Acronyms and domain terms defined on first use",
			"Actionable next steps or decision points clearly identified"),
		dimension("RSK", "Risk Coverage",
			"Identifies at least 3 risks with probability and impact assessment",
			"Provides mitigation strategy for each identified risk",
			"Addresses failure modes and recovery procedures",
			"Considers external dependencies and their failure scenarios",
			"Includes monitoring or validation mechanism for risk detection"),
	}}
}

// ExtendedRubric returns the standard rubric plus the sixth dimension of the
// later upstream revision, "Invariant & Edge Case Coverage": 30 criteria.
// With it the floor rule applies: a variant meeting none of the sixth
// dimension's criteria cannot be the base, unless no variant meets any.
func ExtendedRubric() Rubric {
	r := StandardRubric()
	r.Dimensions = append(r.Dimensions, dimension(Invariants, "Invariant & Edge Case Coverage",
		"Collection boundaries: behaviour for empty, single-element and maximum-size collections is specified",
		"State interactions: concurrent or conflicting changes to shared state are addressed",
		"Guard gaps: preconditions and input validation are stated for the operations described",
		"Off-by-one: inclusive and exclusive bounds of ranges and limits are explicit",
		"Feature interactions: interactions between features and with existing behaviour are analysed"))
	return r
}

// Criteria returns every criterion in rubric order.
func (r Rubric) Criteria() []Criterion {
	var out []Criterion
	for _, d := range r.Dimensions {
		out = append(out, d.Criteria...)
	}
	return out
}

// Len returns the number of criteria: 25, or 30 with the sixth dimension.
func (r Rubric) Len() int {
	n := 0
	for _, d := range r.Dimensions {
		n += len(d.Criteria)
	}
	return n
}

// Criterion returns the criterion with the given ID.
func (r Rubric) Criterion(id string) (Criterion, bool) {
	for _, d := range r.Dimensions {
		for _, c := range d.Criteria {
			if c.ID == id {
				return c, true
			}
		}
	}
	return Criterion{}, false
}

// has reports whether the rubric holds the dimension.
func (r Rubric) has(dim string) bool {
	for _, d := range r.Dimensions {
		if d.ID == dim {
			return true
		}
	}
	return false
}
