package llmjson

import (
	"regexp"
	"strings"
)

// reasoningRE matches a reasoning block some models write before their
// answer. A fenced draft inside it is a draft, not the answer, so the
// whole block goes before anything looks for JSON.
var reasoningRE = regexp.MustCompile(`(?is)<(think|thinking|reasoning|reflection|scratchpad)>.*?</(?:think|thinking|reasoning|reflection|scratchpad)>`)

// unclosedRE matches a reasoning block that is never closed: everything
// after its opening tag is reasoning, so nothing there is an answer.
var unclosedRE = regexp.MustCompile(`(?is)<(think|thinking|reasoning|reflection|scratchpad)>.*\z`)

// StripReasoning removes reasoning blocks (<think>…</think> and its
// kin) from a reply, leaving the final answer. A block never closed
// removes the rest of the reply.
func StripReasoning(reply string) string {
	if !strings.Contains(reply, "<") {
		return reply
	}
	out := reasoningRE.ReplaceAllString(reply, "")
	out = unclosedRE.ReplaceAllString(out, "")
	if out == reply {
		return reply
	}
	return strings.TrimSpace(out)
}

// refusalOpenings are how refusals begin; a reply expected to be JSON or
// a document that opens with one of these and carries neither is a
// refusal, never content.
var refusalOpenings = []string{
	"i can't", "i cannot", "i can’t", "i won't", "i won’t", "i will not", "i'm sorry", "i’m sorry", "i am sorry",
	"sorry, ", "i'm not able", "i’m not able", "i am not able", "i'm unable", "i’m unable", "i am unable", "as an ai",
	"i must decline", "i have to decline", "unfortunately, i can",
}

// IsRefusal reports whether a reply is a refusal sentence: it opens like
// one and holds no JSON value and no Markdown heading.
func IsRefusal(reply string) bool {
	t := strings.ToLower(strings.TrimSpace(reply))
	if t == "" || len(t) > 600 || strings.Contains(t, "{") || strings.Contains(t, "\n#") || strings.HasPrefix(t, "#") {
		return false
	}
	for _, o := range refusalOpenings {
		if strings.HasPrefix(t, o) {
			return true
		}
	}
	return false
}
