package roadmap

import (
	"strings"

	"github.com/crucible-go/crucible/adversarial/debate"
)

// ExpandAgents returns the agents with every model-only agent (no persona,
// with or without an instruction) given the primary persona: with primary
// "security", opus becomes opus:security and opus:"be brief" becomes
// opus:security:"be brief". Agents that name a persona keep it. The input
// is not modified.
func ExpandAgents(agents []debate.AgentSpec, primary string) []debate.AgentSpec {
	out := make([]debate.AgentSpec, len(agents))
	for i, a := range agents {
		if a.Persona == "" {
			a.Persona = primary
		}
		out[i] = a
	}
	return out
}

// AgentList formats agents as an --agents value: their specs joined with
// commas.
func AgentList(agents []debate.AgentSpec) string {
	return strings.Join(agentStrings(agents), ",")
}

func agentStrings(agents []debate.AgentSpec) []string {
	out := make([]string, len(agents))
	for i, a := range agents {
		out[i] = a.String()
	}
	return out
}
