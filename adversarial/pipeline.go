package adversarial

import (
	"context"
	"errors"
	"fmt"
	"math"

	yaml "go.yaml.in/yaml/v3"

	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/provider"
)

// Pipeline runs the five-step adversarial protocol over one input.
//
// Run returns an error, and no result, when the input is invalid (a mode
// conflict, too few or too many variants or agents, a missing file). Every
// other outcome is a *Result:
// status success, partial, or failed with the stage that failed — a failed
// run still carries every artifact finished before it, and comes with a
// [*RunError] whose cause matches what went wrong (errors.Is/As). When ctx
// ends, Run returns what it finished together with an error matching
// ctx.Err().
// Implementations must be safe for concurrent use by separate runs.
type Pipeline interface {
	Run(ctx context.Context, in Input) (*Result, error)
}

// Input is one run of the pipeline: Mode A (Compare) or Mode B (Source,
// Generate, Agents), never both.
type Input struct {
	// Compare holds the variants of Mode A, 2–10 of them, in input order
	// (see LoadVariants).
	Compare []Draft `json:"compare,omitempty"`

	// Source is the source material of Mode B.
	Source *Draft `json:"source,omitempty"`
	// Generate is the artifact type Mode B generates: "roadmap", "spec",
	// "design", …
	Generate string `json:"generate,omitempty"`
	// Agents are Mode B's agents, 2–10, one variant and one advocate each.
	// In Mode A they optionally name the advocates of the variants, one per
	// variant in order; none gives each variant the pipeline's default
	// agent. debate.ParseAgents reads the command-line syntax
	// model[:persona[:"instruction"]],….
	Agents []debate.AgentSpec `json:"agents,omitempty"`

	// ArtifactType names the artifacts in titles ("Specification",
	// "Roadmap"); empty uses Generate, or "Artifact".
	ArtifactType string `json:"artifact_type,omitempty"`
	// Depth is quick, standard or deep (1, 2 or up to 3 debate rounds);
	// empty means standard. Any other value is an error matching
	// [ErrInvalidInput].
	Depth debate.Depth `json:"depth,omitempty"`
	// Convergence is the agreement threshold, 0.50–0.99; zero means 0.80.
	// A value out of range is an error matching [ErrInvalidInput].
	Convergence float64 `json:"convergence,omitempty"`
	// Focus restricts the debate to these areas.
	Focus []string `json:"focus,omitempty"`
	// Interactive consults the pipeline's Checkpoints at the four decision
	// points; otherwise every decision is taken automatically and
	// documented.
	Interactive bool `json:"interactive,omitempty"`
	// OutputDir is where the host writes the artifacts; it only appears in
	// the paths of the return contract. Empty means ".".
	OutputDir string `json:"output_dir,omitempty"`
	// MergedOutput names the merged document; empty means
	// "merged-output.md".
	MergedOutput string `json:"merged_output,omitempty"`
	// Sink, when set, receives every artifact as soon as it is produced, so
	// a run cut short has written everything it finished.
	Sink Sink `json:"-"`
	// Resume holds the outputs of steps completed by an earlier run; Run
	// starts after the last of them.
	Resume *Checkpoint `json:"-"`
}

// Mode says which input mode a run uses.
type Mode string

// The input modes.
const (
	ModeCompare  Mode = "compare"  // Mode A: compare existing files
	ModeGenerate Mode = "generate" // Mode B: generate variants from a source, then compare
)

// Errors of input mode parsing. The messages name the command-line flags
// the Input fields stand for.
var (
	ErrModeConflict = errors.New("cannot use --compare with --source/--generate/--agents")
	ErrNoMode       = errors.New("must provide --compare (Mode A) or --source + --generate + --agents (Mode B)")
	ErrModeBFlags   = errors.New("mode B requires all three flags: --source, --generate, --agents")
	// ErrInvalidInput matches an Input value out of its range: an unknown
	// Depth, a Convergence outside 0.50–0.99, Mode A agents that are not
	// one per variant, an empty source.
	ErrInvalidInput = errors.New("invalid input")
)

// Mode reports the input's mode, or an error for a conflict
// ([ErrModeConflict]), a missing mode ([ErrNoMode]), or Mode B settings
// missing ([ErrModeBFlags]).
func (in Input) Mode() (Mode, error) {
	modeB := in.Source != nil || in.Generate != "" || (len(in.Agents) > 0 && len(in.Compare) == 0)
	switch {
	case len(in.Compare) > 0 && (in.Source != nil || in.Generate != ""):
		return "", ErrModeConflict
	case len(in.Compare) > 0:
		return ModeCompare, nil
	case !modeB:
		return "", ErrNoMode
	}
	var missing []string
	if in.Source == nil {
		missing = append(missing, "--source")
	}
	if in.Generate == "" {
		missing = append(missing, "--generate")
	}
	if len(in.Agents) == 0 {
		missing = append(missing, "--agents")
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%w. Missing: %s", ErrModeBFlags, joinList(missing))
	}
	return ModeGenerate, nil
}

func joinList(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// Status is the outcome of a run, the status field of its return contract.
type Status string

// The statuses of a run.
const (
	// StatusSuccess: all five steps completed, the debate converged and
	// the post-merge validation passed.
	StatusSuccess Status = "success"
	// StatusPartial: the steps completed with warnings — no convergence,
	// a skipped debate, a failed change or a failed validation.
	StatusPartial Status = "partial"
	// StatusFailed: the run aborted; the artifacts hold what was finished.
	StatusFailed Status = "failed"
)

// Stage names a step of the pipeline: where a failed run stopped
// ([Result.FailureStage], [RunError]) and which step an [Event] is about.
type Stage string

// The stages, in pipeline order. StageInput is the validation of the
// input before any step runs.
const (
	StageInput    Stage = "input"
	StageGenerate Stage = "generate"
	StageDiff     Stage = "diff"
	StageDebate   Stage = "debate"
	StageScoring  Stage = "scoring"
	StagePlan     Stage = "plan"
	StageMerge    Stage = "merge"
)

// Result is the outcome of a run: its return contract (the fields
// with YAML names, also written as return-contract.yaml), the artifacts in
// the order they were produced, and each step's typed output.
type Result struct {
	Status           Status `json:"status" yaml:"status"`
	MergedOutputPath string `json:"merged_output_path" yaml:"merged_output_path"`
	// ConvergenceScore is the debate's convergence over the contested
	// points (structural, content, contradiction) — the figure its
	// threshold and status use; ConvergenceAllPoints counts the unique
	// contributions too, for reference.
	ConvergenceScore     float64  `json:"convergence_score" yaml:"convergence_score"`
	ConvergenceAllPoints float64  `json:"convergence_all_points" yaml:"convergence_all_points"`
	ArtifactsDir         string   `json:"artifacts_dir" yaml:"artifacts_dir"`
	UnresolvedConflicts  []string `json:"unresolved_conflicts" yaml:"unresolved_conflicts"`
	// BaseVariant is the base's agent spec (model:persona) in Mode B, or
	// its file name in Mode A.
	BaseVariant  string `json:"base_variant,omitempty" yaml:"base_variant,omitempty"`
	FailureStage Stage  `json:"failure_stage,omitempty" yaml:"failure_stage,omitempty"`
	// Agents lists the advocates that took part, as agent specs.
	Agents   []string `json:"agents,omitempty" yaml:"agents,omitempty"`
	Warnings []string `json:"warnings,omitempty" yaml:"warnings,omitempty"`
	Usage    Usage    `json:"usage" yaml:"usage"`

	// MergedOutput is the merged document; empty when the run failed
	// before the merge (a single surviving variant is returned as is).
	MergedOutput string `json:"-" yaml:"-"`
	// Artifacts holds every artifact produced, in order.
	Artifacts []Artifact `json:"-" yaml:"-"`
	// Steps holds the typed output of each step that ran.
	Steps Checkpoint `json:"-" yaml:"-"`
}

// Usage counts the model calls of a run: every call sent, with the
// tokens the provider reported for it — failed attempts and retries
// included, calls cancelled before they were sent not.
type Usage struct {
	Calls int            `json:"calls" yaml:"calls"`
	Total provider.Usage `json:"total" yaml:"total"`
	// ByStep and StepCalls are per pipeline step ("generate", "diff",
	// "debate", "scoring", "merge").
	ByStep    map[string]provider.Usage `json:"by_step,omitempty" yaml:"by_step,omitempty"`
	StepCalls map[string]int            `json:"step_calls,omitempty" yaml:"step_calls,omitempty"`
	// ByAgent and AgentCalls are per agent: the agent spec of a generator
	// or advocate, else the role and its model ("judge (opus)",
	// "contradiction-detector (opus)", "merge-executor (sonnet)"), so
	// every call belongs to someone.
	ByAgent    map[string]provider.Usage `json:"by_agent,omitempty" yaml:"by_agent,omitempty"`
	AgentCalls map[string]int            `json:"agent_calls,omitempty" yaml:"agent_calls,omitempty"`
}

// Artifact returns the content of the named artifact.
func (r *Result) Artifact(name string) ([]byte, bool) {
	for _, a := range r.Artifacts {
		if a.Name == name {
			return a.Content, true
		}
	}
	return nil, false
}

// ContractYAML renders the return contract as YAML (return-contract.yaml),
// with keys in a fixed order.
func (r *Result) ContractYAML() ([]byte, error) {
	unresolved := r.UnresolvedConflicts
	if unresolved == nil {
		unresolved = []string{}
	}
	c := struct {
		Status              Status    `yaml:"status"`
		MergedOutputPath    string    `yaml:"merged_output_path"`
		ConvergenceScore    float64   `yaml:"convergence_score"`
		ConvergenceAll      float64   `yaml:"convergence_all_points"`
		ArtifactsDir        string    `yaml:"artifacts_dir"`
		UnresolvedConflicts []string  `yaml:"unresolved_conflicts"`
		BaseVariant         string    `yaml:"base_variant,omitempty"`
		FailureStage        Stage     `yaml:"failure_stage,omitempty"`
		Agents              []string  `yaml:"agents,omitempty"`
		Warnings            []string  `yaml:"warnings,omitempty"`
		Usage               yamlUsage `yaml:"usage"`
	}{r.Status, r.MergedOutputPath, math.Round(r.ConvergenceScore*1e4) / 1e4, math.Round(r.ConvergenceAllPoints*1e4) / 1e4,
		r.ArtifactsDir, unresolved, r.BaseVariant,
		r.FailureStage, r.Agents, r.Warnings, newYAMLUsage(r.Usage)}
	return yaml.Marshal(c)
}

// yamlUsage renders token usage with sorted map keys and snake_case names.
type yamlUsage struct {
	Calls        int            `yaml:"calls"`
	InputTokens  int64          `yaml:"input_tokens"`
	OutputTokens int64          `yaml:"output_tokens"`
	CachedTokens int64          `yaml:"cached_tokens,omitempty"`
	ByStep       []yamlUsageRow `yaml:"by_step,omitempty"`
	ByAgent      []yamlUsageRow `yaml:"by_agent,omitempty"`
}

type yamlUsageRow struct {
	Name         string `yaml:"name"`
	Calls        int    `yaml:"calls,omitempty"`
	InputTokens  int64  `yaml:"input_tokens"`
	OutputTokens int64  `yaml:"output_tokens"`
	CachedTokens int64  `yaml:"cached_tokens,omitempty"`
}

func newYAMLUsage(u Usage) yamlUsage {
	rows := func(m map[string]provider.Usage, calls map[string]int) []yamlUsageRow {
		keys := sortedKeys(m)
		out := make([]yamlUsageRow, 0, len(keys))
		for _, k := range keys {
			out = append(out, yamlUsageRow{Name: k, Calls: calls[k], InputTokens: m[k].InputTokens, OutputTokens: m[k].OutputTokens,
				CachedTokens: m[k].CachedTokens})
		}
		return out
	}
	return yamlUsage{Calls: u.Calls, InputTokens: u.Total.InputTokens, OutputTokens: u.Total.OutputTokens,
		CachedTokens: u.Total.CachedTokens, ByStep: rows(u.ByStep, u.StepCalls), ByAgent: rows(u.ByAgent, u.AgentCalls)}
}
