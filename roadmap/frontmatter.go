package roadmap

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/diff"
)

// AdversarialKey is the front-matter key of the adversarial block.
const AdversarialKey = "adversarial"

// Adversarial is the adversarial block of roadmap.md's front matter,
// populated from the mode and the return contract.
type Adversarial struct {
	Mode Mode `json:"mode" yaml:"mode"`
	// Agents are the expanded agent specs of --agents; in multi-spec mode,
	// the advocates the pipeline used.
	Agents           []string `json:"agents" yaml:"agents"`
	ConvergenceScore float64  `json:"convergence_score" yaml:"convergence_score"`
	// BaseVariant is the variant that won the debate (model:persona);
	// written only in multi-roadmap and combined modes.
	BaseVariant  string `json:"base_variant,omitempty" yaml:"base_variant,omitempty"`
	ArtifactsDir string `json:"artifacts_dir" yaml:"artifacts_dir"`
}

// node returns the block as a YAML mapping with its keys in a fixed order
// (mode, agents as a flow sequence, convergence_score, base_variant in
// modes that generate roadmaps, artifacts_dir).
func (a Adversarial) node() *yaml.Node {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	agents := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, s := range a.Agents {
		agents.Content = append(agents.Content, str(s))
	}
	score := strconv.FormatFloat(a.ConvergenceScore, 'f', -1, 64)
	if !strings.ContainsAny(score, ".eEnN") {
		score += ".0" // a float, also to readers that type by the text
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	add := func(k string, v *yaml.Node) { m.Content = append(m.Content, str(k), v) }
	add("mode", str(string(a.Mode)))
	add("agents", agents)
	add("convergence_score", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: score})
	if a.Mode.Generates() {
		add("base_variant", str(a.BaseVariant))
	}
	add("artifacts_dir", str(a.ArtifactsDir))
	return m
}

// ErrFrontMatter matches a document whose front matter cannot be updated.
var ErrFrontMatter = errors.New("roadmap: front matter")

// SetAdversarial sets the adversarial block of doc's front matter, or
// removes it when a is nil, so that a roadmap of the standard path has no
// adversarial key at all. See [SetFrontMatter].
func SetAdversarial(doc []byte, a *Adversarial) ([]byte, error) {
	if a == nil {
		return SetFrontMatter(doc, AdversarialKey, nil)
	}
	return SetFrontMatter(doc, AdversarialKey, a.node())
}

// SetFrontMatter returns doc (normalised as diff.Normalize does) with key
// set to value in its YAML front matter: a value already under key is
// replaced where it stands, a new key goes last, and a nil value removes
// the key (and the front matter, when nothing is left in it). Every other
// key keeps its place, value and comments; the block is re-encoded with
// two-space indentation. value may be a *yaml.Node or anything yaml
// encodes. A document without front matter gets one; a document whose
// opening "---" block is not a YAML mapping has none (as diff.Parse reads
// it), and malformed YAML in it is an error matching [ErrFrontMatter].
func SetFrontMatter(doc []byte, key string, value any) ([]byte, error) {
	return setFrontMatter(doc, []field{{key, value}})
}

// field is one key of front matter to set (a nil value removes it).
type field struct {
	key   string
	value any
}

// setFrontMatter sets the fields in order, in one pass over doc.
func setFrontMatter(doc []byte, fields []field) ([]byte, error) {
	source, fm, err := readFrontMatter(doc)
	if err != nil {
		return nil, err
	}
	body := source
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	var head *yaml.Node // the document node of existing front matter
	if fm != nil {
		body = source[fm.Span.End:]
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(fm.Raw), &n); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFrontMatter, err)
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode {
			head, root = &n, n.Content[0]
		}
	}

	changed := false
	for _, f := range fields {
		var vnode *yaml.Node
		if f.value != nil {
			if n, ok := f.value.(*yaml.Node); ok {
				vnode = n
			} else {
				vnode = &yaml.Node{}
				if err := vnode.Encode(f.value); err != nil {
					return nil, fmt.Errorf("%w: encode %s: %w", ErrFrontMatter, f.key, err)
				}
			}
		}
		found := false
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == f.key {
				found, changed = true, true
				if vnode == nil {
					root.Content = append(root.Content[:i:i], root.Content[i+2:]...)
				} else {
					root.Content[i+1] = vnode
				}
				break
			}
		}
		if !found && vnode != nil {
			changed = true
			root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.key}, vnode)
		}
	}
	switch {
	case !changed:
		return []byte(source), nil
	case len(root.Content) == 0:
		return []byte(body), nil
	}

	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	out := any(root)
	if head != nil {
		out = head
	}
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("%w: encode: %w", ErrFrontMatter, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("%w: encode: %w", ErrFrontMatter, err)
	}
	buf.WriteString("---\n")
	buf.WriteString(body)
	return buf.Bytes(), nil
}

// readFrontMatter normalises doc and reads its front matter as diff.Parse
// does, without parsing the Markdown after it.
func readFrontMatter(doc []byte) (string, *diff.FrontMatter, error) {
	norm, err := diff.Normalize(doc)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrFrontMatter, err)
	}
	fm, err := diff.ReadFrontMatter(norm)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrFrontMatter, err)
	}
	return string(norm), fm, nil
}
