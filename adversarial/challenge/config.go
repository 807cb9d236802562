package challenge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/crucible-go/crucible/provider"
)

// Defaults.
const (
	// DefaultMaxRounds is the number of rounds after which, concerns
	// remaining, the [Decider] makes the final call with a logged rationale.
	DefaultMaxRounds = 3
	// MaxRoundsLimit bounds the configurable maximum: a longer debate
	// exhausts the context and the user's patience without converging.
	MaxRoundsLimit = 10
	// DefaultProfile is balanced (sonnet): good challenges at a reasonable
	// cost.
	DefaultProfile = Balanced
)

// Profile is the adversary's model profile.
type Profile string

// Profiles and, through [Profile.Alias], the models they stand for.
const (
	Quality  Profile = "quality"  // opus: deep reasoning for complex challenges
	Balanced Profile = "balanced" // sonnet: good challenge quality, reasonable cost
	Budget   Profile = "budget"   // haiku: quick challenges, lower depth
)

// Alias returns the model alias the profile maps to — "opus", "sonnet" or
// "haiku" — as a [provider.Registry] knows it, or "" for an unknown
// profile.
func (p Profile) Alias() string {
	switch p {
	case Quality:
		return "opus"
	case Balanced:
		return "sonnet"
	case Budget:
		return "haiku"
	}
	return ""
}

// Config is the adversary's configuration. The zero value is the default:
// disabled (the adversary is opt-in), 3 rounds, all four checkpoints, the
// balanced profile.
type Config struct {
	// Enabled turns the adversary on; when false the loop returns the
	// artifact untouched with StatusSkipped.
	Enabled bool `json:"enabled"`
	// MaxRounds is the most rounds of debate, 1 to MaxRoundsLimit; 0
	// means DefaultMaxRounds.
	MaxRounds int `json:"max_rounds,omitempty"`
	// Checkpoints are the artifact types the adversary challenges; nil
	// means all four, an empty non-nil slice none.
	Checkpoints []ArtifactType `json:"checkpoints,omitempty"`
	// Profile picks the model: quality, balanced or budget; "" means
	// DefaultProfile.
	Profile Profile `json:"profile,omitempty"`
	// Model, when set, names the model (an id or alias a registry knows)
	// and overrides Profile.
	Model string `json:"model,omitempty"`
}

// DefaultConfig returns the defaults spelled out.
func DefaultConfig() Config {
	return Config{MaxRounds: DefaultMaxRounds, Checkpoints: ArtifactTypes(), Profile: DefaultProfile}
}

// Validate checks the configuration; errors match [ErrInvalidConfig].
func (c Config) Validate() error {
	if c.MaxRounds < 0 || c.MaxRounds > MaxRoundsLimit {
		return fmt.Errorf("%w: max rounds %d is outside 1–%d", ErrInvalidConfig, c.MaxRounds, MaxRoundsLimit)
	}
	for _, t := range c.Checkpoints {
		if !t.Valid() {
			return fmt.Errorf("%w: unknown checkpoint %q; want requirements, roadmap, plans or verification", ErrInvalidConfig, t)
		}
	}
	if c.Profile != "" && c.Profile.Alias() == "" {
		return fmt.Errorf("%w: unknown model profile %q; want quality, balanced or budget", ErrInvalidConfig, c.Profile)
	}
	return nil
}

// Rounds returns the maximum number of rounds, the default applied.
func (c Config) Rounds() int {
	if c.MaxRounds == 0 {
		return DefaultMaxRounds
	}
	return c.MaxRounds
}

// Checkpoint reports whether the adversary challenges artifacts of type t.
func (c Config) Checkpoint(t ArtifactType) bool {
	if c.Checkpoints == nil {
		return t.Valid()
	}
	return slices.Contains(c.Checkpoints, t)
}

// ModelName returns the configured model name: Model, else the profile's
// alias.
func (c Config) ModelName() string {
	if m := strings.TrimSpace(c.Model); m != "" {
		return m
	}
	p := c.Profile
	if p == "" {
		p = DefaultProfile
	}
	return p.Alias()
}

// ResolveModel maps the configured model (see [Config.ModelName]) to its
// canonical id through reg. An unknown name fails with the registry's
// [*provider.UnknownModelError], which lists the known ones.
func (c Config) ResolveModel(reg *provider.Registry) (string, error) {
	if err := c.Validate(); err != nil {
		return "", err
	}
	if reg == nil {
		return "", fmt.Errorf("%w: no model registry", ErrInvalidConfig)
	}
	id, err := reg.Resolve(c.ModelName())
	if err != nil {
		return "", fmt.Errorf("challenge: adversary model: %w", err)
	}
	return id, nil
}

// ParseConfig reads the adversary's settings from a JSON project
// configuration of this shape, ignoring every other key:
//
//	{
//	  "model_profile": "balanced",
//	  "workflow": {"adversary": true},
//	  "adversary": {"max_rounds": 3, "checkpoints": ["requirements", "roadmap", "plans", "verification"]}
//	}
//
// "adversary" may also be a boolean (the toggle alone), and "checkpoints" an
// object of booleans ({"plans": true, "verification": false}), as the
// widely used fork writes them. Absent keys keep the defaults.
func ParseConfig(data []byte) (Config, error) {
	var raw struct {
		ModelProfile string `json:"model_profile"`
		Workflow     struct {
			Adversary *bool `json:"adversary"`
		} `json:"workflow"`
		Adversary json.RawMessage `json:"adversary"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Config{}, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	c := Config{Profile: Profile(strings.ToLower(strings.TrimSpace(raw.ModelProfile)))}
	if raw.Workflow.Adversary != nil {
		c.Enabled = *raw.Workflow.Adversary
	}
	if a := strings.TrimSpace(string(raw.Adversary)); a != "" && a != "null" {
		if err := c.readAdversary(raw.Adversary); err != nil {
			return Config{}, err
		}
	}
	return c, c.Validate()
}

func (c *Config) readAdversary(msg json.RawMessage) error {
	var toggle bool
	if json.Unmarshal(msg, &toggle) == nil {
		c.Enabled = toggle
		return nil
	}
	var obj struct {
		Enabled     *bool           `json:"enabled"`
		MaxRounds   *int            `json:"max_rounds"`
		Checkpoints json.RawMessage `json:"checkpoints"`
		Profile     string          `json:"model_profile"`
		Model       string          `json:"model"`
	}
	if err := json.Unmarshal(msg, &obj); err != nil {
		return fmt.Errorf("%w: adversary: %w", ErrInvalidConfig, err)
	}
	if obj.Enabled != nil {
		c.Enabled = *obj.Enabled
	}
	if obj.MaxRounds != nil {
		if *obj.MaxRounds < 1 {
			return fmt.Errorf("%w: max rounds %d is outside 1–%d", ErrInvalidConfig, *obj.MaxRounds, MaxRoundsLimit)
		}
		c.MaxRounds = *obj.MaxRounds
	}
	if obj.Profile != "" {
		c.Profile = Profile(strings.ToLower(strings.TrimSpace(obj.Profile)))
	}
	c.Model = strings.TrimSpace(obj.Model)
	if cp := strings.TrimSpace(string(obj.Checkpoints)); cp != "" && cp != "null" {
		cps, err := readCheckpoints(obj.Checkpoints)
		if err != nil {
			return err
		}
		c.Checkpoints = cps
	}
	return nil
}

// readCheckpoints reads a list of names or an object of booleans, in
// checkpoint order either way.
func readCheckpoints(msg json.RawMessage) ([]ArtifactType, error) {
	var names []string
	if err := json.Unmarshal(msg, &names); err != nil {
		var flags map[string]bool
		if err2 := json.Unmarshal(msg, &flags); err2 != nil {
			return nil, fmt.Errorf("%w: checkpoints: want a list of names or an object of booleans: %w", ErrInvalidConfig, err)
		}
		keys := make([]string, 0, len(flags))
		for name := range flags {
			keys = append(keys, name)
		}
		slices.Sort(keys) // the first bad name reported does not depend on map order
		for _, name := range keys {
			if flags[name] {
				names = append(names, name)
			} else if _, err := ParseArtifactType(name); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
			}
		}
	}
	set := map[ArtifactType]bool{}
	for _, n := range names {
		t, err := ParseArtifactType(n)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
		}
		set[t] = true
	}
	out := []ArtifactType{}
	for _, t := range ArtifactTypes() {
		if set[t] {
			out = append(out, t)
		}
	}
	return out, nil
}
