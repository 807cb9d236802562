package debate

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

func TestParseAgentSpec(t *testing.T) {
	tests := []struct {
		in   string
		want AgentSpec
		err  string
	}{
		{in: "opus", want: AgentSpec{Model: "opus"}},
		{in: "opus:architect", want: AgentSpec{Model: "opus", Persona: "architect"}},
		{in: `opus:architect:"focus on scalability"`, want: AgentSpec{Model: "opus", Persona: "architect", Instruction: "focus on scalability"}},
		{in: `opus:"focus on scalability"`, want: AgentSpec{Model: "opus", Instruction: "focus on scalability"}},
		{in: ` sonnet : security : "a, b: c" `, want: AgentSpec{Model: "sonnet", Persona: "security", Instruction: "a, b: c"}},
		{in: `opus:"say \"hi\" \\ bye"`, want: AgentSpec{Model: "opus", Instruction: `say "hi" \ bye`}},
		{in: `opus:architect:""`, want: AgentSpec{Model: "opus", Persona: "architect"}},
		{in: `gpt-5.4-mini:qa`, want: AgentSpec{Model: "gpt-5.4-mini", Persona: "qa"}},
		{in: `opus:architect:focus on scalability`, err: `Instruction must be quoted: opus:architect:focus on scalability`},
		{in: `opus:architect:"focus`, err: `Instruction must be quoted: opus:architect:"focus`},
		{in: `opus:architect:"a":b`, err: `Instruction must be quoted: opus:architect:"a":b`},
		{in: `opus:"a":b`, err: `Instruction must be quoted: opus:"a":b`},
		{in: `opus:arch"itect`, err: `Instruction must be quoted: opus:arch"itect`},
		{in: `opus:"bad \x escape"`, err: `Instruction must be quoted`},
		{in: `opus:`, err: "Agent spec has an empty persona: opus:"},
		{in: `opus:two words`, err: "Invalid persona two words in agent spec: opus:two words"},
		{in: ``, err: "Agent spec has no model: "},
		{in: `:architect`, err: "Agent spec has no model: :architect"},
		{in: `"opus"`, err: `Unknown model: "opus"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAgentSpec(tt.in)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.ErrorIs(t, err, ErrInvalidAgentSpec)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			back, err := ParseAgentSpec(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, back, "String round-trips")
		})
	}
}

func registry(t testing.TB) *provider.Registry {
	t.Helper()
	reg := provider.NewRegistry()
	require.NoError(t, reg.Register("claude-opus", providertest.Echo(), "opus"))
	require.NoError(t, reg.Register("claude-sonnet", providertest.Echo(), "sonnet"))
	require.NoError(t, reg.Register("gpt52", providertest.Echo()))
	return reg
}

func TestParseAgents(t *testing.T) {
	reg := registry(t)
	tests := []struct {
		list  string
		reg   *provider.Registry
		want  []AgentSpec
		warns []string
		err   string
		is    error
	}{
		{list: "opus:architect,sonnet,gpt52:security", reg: reg,
			want: []AgentSpec{{Model: "opus", Persona: "architect"}, {Model: "sonnet"}, {Model: "gpt52", Persona: "security"}}},
		{list: `opus:architect:"scale, then: simplify",sonnet:"be brief"`, reg: reg,
			want: []AgentSpec{{Model: "opus", Persona: "architect", Instruction: "scale, then: simplify"}, {Model: "sonnet", Instruction: "be brief"}}},
		{list: "opus:wizard,sonnet:Architect", reg: reg,
			want:  []AgentSpec{{Model: "opus", Persona: "wizard"}, {Model: "sonnet", Persona: "Architect"}},
			warns: []string{"Unknown persona wizard, using model defaults"}},
		{list: "opus,llama3", reg: reg, err: "Unknown model: llama3", is: provider.ErrUnknownModel},
		{list: "opus,llama3", reg: nil, want: []AgentSpec{{Model: "opus"}, {Model: "llama3"}}},
		{list: "opus", reg: reg, err: "adversarial comparison requires at least 2 agents, got 1", is: ErrTooFewAgents},
		{list: "", reg: reg, err: "adversarial comparison requires at least 2 agents, got 0", is: ErrTooFewAgents},
		{list: strings.Repeat("opus,", 10) + "opus", reg: reg, err: "maximum 10 agents supported, got 11", is: ErrTooManyAgents},
		{list: "opus,,sonnet", reg: reg, err: "Empty agent spec in list: opus,,sonnet", is: ErrInvalidAgentSpec},
		{list: "opus:architect:scale,sonnet", reg: reg, err: "Instruction must be quoted: opus:architect:scale", is: ErrInvalidAgentSpec},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			got, err := ParseAgents(tt.list)
			var warns []string
			if err == nil {
				warns, err = CheckAgents(got, tt.reg)
			}
			if tt.err != "" {
				require.Error(t, err)
				assert.Equal(t, tt.err, err.Error())
				assert.ErrorIs(t, err, tt.is)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.warns, warns)
		})
	}
}

// The registry's error stays reachable so that the roadmap integration
// can reword it ("Unknown model '<model>' in --agents. Available models: …").
func TestParseAgentsUnknownModelCause(t *testing.T) {
	specs, err := ParseAgents("opus,llama3")
	require.NoError(t, err)
	_, err = CheckAgents(specs, registry(t))
	var um *provider.UnknownModelError
	require.True(t, errors.As(err, &um))
	assert.Equal(t, "llama3", um.Model)
	assert.Equal(t, []string{"claude-opus", "claude-sonnet", "gpt52", "opus", "sonnet"}, um.Available)
	var se *SpecError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "llama3", se.Spec)
}

func TestPersonas(t *testing.T) {
	assert.Contains(t, Personas(), "architect")
	f, ok := PersonaFocus("Security")
	assert.True(t, ok)
	assert.Equal(t, "vulnerabilities, attack surface, compliance", f)
	assert.True(t, AgentSpec{Model: "opus"}.KnownPersona())
	assert.False(t, AgentSpec{Model: "opus", Persona: "wizard"}.KnownPersona())
}

func FuzzParseAgentSpec(f *testing.F) {
	for _, s := range []string{"opus", "opus:architect", `opus:architect:"focus on scalability"`, `opus:"x"`,
		`opus:"a\"b\\c"`, `a:b:c`, `"`, `opus:"`, `:`, `opus::`, "op\x00us"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseAgentSpec(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidAgentSpec) {
				t.Fatalf("error %v does not match ErrInvalidAgentSpec", err)
			}
			return
		}
		back, err := ParseAgentSpec(spec.String())
		if err != nil {
			t.Fatalf("%q parsed to %#v, whose String %q does not parse: %v", s, spec, spec.String(), err)
		}
		if back != spec {
			t.Fatalf("%q: round trip %#v → %q → %#v", s, spec, spec.String(), back)
		}
	})
}

func FuzzParseAgents(f *testing.F) {
	for _, s := range []string{"opus,sonnet", `opus:architect:"a, b",sonnet:"c:d"`, `opus,"`, `,`, `a,b,c,d,e,f,g,h,i,j,k`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		specs, err := ParseAgents(list)
		if err != nil {
			return
		}
		parts := make([]string, len(specs))
		for i, s := range specs {
			parts[i] = s.String()
		}
		back, err := ParseAgents(strings.Join(parts, ","))
		if err != nil {
			t.Fatalf("%q: joined specs %q do not parse: %v", list, strings.Join(parts, ","), err)
		}
		require.Equal(t, specs, back)
	})
}
