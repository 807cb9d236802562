package adversarial

import "github.com/crucible-go/crucible/adversarial/debate"

// agentList parses an --agents list for a test input; a list a test writes
// must parse.
func agentList(list string) []debate.AgentSpec {
	specs, err := debate.ParseAgents(list)
	if err != nil {
		panic(err)
	}
	return specs
}
