package scoring

import (
	"fmt"
	"regexp"
	"strings"
)

// checks are the rule judge's tests, by criterion ID. Each returns MET only
// with lines of the variant to quote.
var checks = map[string]func(*view) result{
	"CMP-1": checkRequirements,
	"CMP-2": checkEdgeCases,
	"CMP-3": checkDependencies,
	"CMP-4": checkSuccessCriteria,
	"CMP-5": checkOutOfScope,
	"COR-1": checkNoHallucination,
	"COR-2": checkFeasible,
	"COR-3": checkTerminology,
	"COR-4": checkNoContradictions,
	"COR-5": checkRationale,
	"STR-1": checkOrdering,
	"STR-2": checkHierarchy,
	"STR-3": checkSeparation,
	"STR-4": checkNavigation,
	"STR-5": checkConventions,
	"CLA-1": checkUnambiguous,
	"CLA-2": checkConcrete,
	"CLA-3": checkPurpose,
	"CLA-4": checkAcronyms,
	"CLA-5": checkNextSteps,
	"RSK-1": checkRisksAssessed,
	"RSK-2": checkMitigations,
	"RSK-3": checkRecovery,
	"RSK-4": checkExternalFailures,
	"RSK-5": checkMonitoring,
	"INV-1": lineTest(reCollections, 1, "collection boundaries (empty, single, maximum-size collections)"),
	"INV-2": lineTest(reState, 1, "state interactions (concurrency, conflicts, transactions)"),
	"INV-3": lineTest(reGuards, 1, "guards (preconditions, input validation, rejection)"),
	"INV-4": lineTest(reBounds, 1, "explicit bounds (inclusive, exclusive, at most, at least)"),
	"INV-5": lineTest(reInteractions, 1, "feature interactions (compatibility, combined behaviour)"),
}

var (
	reEdgeCases    = compile(`(?i)\b(?:edge|corner) cases?\b|\bfail(?:s|ed|ure|ures|ing)?\b|\berrors?\b|\bfallbacks?\b|\btime ?outs?\b|\binvalid\b|\boutages?\b|\bdegrad\w*|\bboundar(?:y|ies)\b|\boverflows?\b|\bunavailab\w*|\bcrash\w*`)
	reDependencies = compile(`(?i)\bdepend(?:s|ed|ing|ency|encies|ent|ents)?\b|\bprerequisites?\b|\brequires\b|\bblocked by\b|\bbuilds on\b`)
	reSuccess      = compile(`(?i)\b(?:success|acceptance|completion|exit) criteri(?:a|on)\b|\bdefinition of done\b|\bdone when\b|\bsuccess metrics?\b|\bis complete when\b|\bacceptance tests?\b|\bKPIs?\b`)
	reOutOfScope   = compile(`(?i)\bout[- ]of[- ]scope\b|\bnon-?goals?\b|\bnot in scope\b|\bscope exclusions?\b|\b(?:will not|won't|does not|do not) (?:support|implement|address|cover|include|handle)\b|\bexplicitly excluded\b|\bis excluded\b|\bare excluded\b`)
	reRationale    = compile(`(?i)\b(?:because|since|due to|so that|in order to|rationale|therefore|as a result|based on|according to|measured|benchmark\w*|evidence)\b|\[\d+\]|https?://`)
	reRationaleH   = compile(`(?i)rationale|justification|evidence|motivation`)
	reOrienting    = compile(`(?i)overview|introduction|summary|purpose|background|context|goals?\b|problem|scope|motivation|abstract|executive`)
	reNavigation   = compile(`(?i)^(?:table of )?contents$|^toc$|^index$`)
	reRequirement  = compile(`\b(?:must|shall|MUST|SHALL)\b`)
	reOrdered      = compile(`^\d+[.)]\s`)
	reRoadmapH     = compile(`(?i)milestone|phase|timeline|release|roadmap|schedule|quarter|\bQ[1-4]\b`)
	rePlanH        = compile(`(?i)\bsteps?\b|tasks?|phases?|milestones?|schedule|timeline|work ?items?|implementation`)
	reDesignH      = compile(`(?i)design|architecture|approach|decisions?|alternatives?|components?`)
	reNextSteps    = compile(`(?i)\bnext steps?\b|\baction items?\b|\bdecisions?\b|\bdecide[sd]?\b|\bopen questions?\b|\bgo/no-go\b|\bowner\s*:|^[-*+] \[[ xX]\]`)
	reFailure      = compile(`(?i)\bfail(?:ure|ures|s|ed|ing)?\b|\boutages?\b|\bcrash\w*|\bdata loss\b|\bcorrupt\w*|\bdown ?time\b|\bincidents?\b`)
	reRecovery     = compile(`(?i)\brecover\w*|\broll ?backs?\b|\broll back\b|\brestor\w*|\bfail ?over\b|\bbackups?\b|\bretr(?:y|ies)\b|\bredundan\w*|\bstandby\b`)
	reExternal     = compile(`(?i)\bexternal\b|\bthird[- ]party\b|\bvendors?\b|\bupstream\b|\bproviders?\b|\bSaaS\b|\bdependenc(?:y|ies)\b|\bdepends on\b`)
	reExtFailure   = compile(`(?i)\bunavailab\w*|\boutages?\b|\bdown\b|\bfail\w*|\btime ?outs?\b|\bdegrad\w*|\brate[- ]limit\w*|\bdeprecat\w*`)
	reMonitoring   = compile(`(?i)\bmonitor\w*|\balert\w*|\bdashboards?\b|\bobservability\b|\bmetrics?\b|\bhealth ?checks?\b|\bSL[OI]s?\b|\bcanar(?:y|ies)\b|\btelemetry\b|\btracing\b|\baudit log\w*|\bsmoke tests?\b|\bvalidation\b`)
	reRiskH        = regexp.MustCompile(`(?i)\brisks?\b`)
	reMitigation   = regexp.MustCompile(`(?i)mitigat\w*|fallback|contingenc\w*|roll ?back|workaround|fail ?over|countermeasure|response|→|->|=>|⇒`)

	reCollections  = compile(`(?i)\bempty (?:lists?|sets?|collections?|queues?|batch(?:es)?|arrays?|inputs?|results?|pages?)\b|\b(?:zero|no|single|one) (?:items?|elements?|entries|entry|records?)\b|\bmax(?:imum)? (?:size|length|items|entries|batch)\b|\b(?:page|batch) size\b|\bat most \d+ (?:items|entries|records|elements)\b`)
	reState        = compile(`(?i)\bconcurren\w*|\brace conditions?\b|\bsimultaneous\w*|\bidempoten\w*|\btransaction\w*|\block(?:s|ing)?\b|\bstate (?:machines?|transitions?)\b|\bconflicting (?:updates|writes|changes)\b`)
	reGuards       = compile(`(?i)\bvalidat\w* (?:the )?(?:inputs?|requests?|parameters?|payloads?)\b|\bpreconditions?\b|\bguards?\b|\binvalid (?:inputs?|requests?|values?|data)\b|\breject(?:s|ed)?\b|\bsaniti[sz]\w*|\bmust be (?:non-empty|positive|present|valid)\b|\breturns? (?:an )?errors?\b`)
	reBounds       = compile(`(?i)\binclusive\b|\bexclusive\b|\bhalf-open\b|\bup to and including\b|\bat most\b|\bat least\b|≤|≥|<=|>=|\bno more than\b|\bno fewer than\b`)
	reInteractions = compile(`(?i)\binteract(?:s|ion|ions)?\b|\bcombined with\b|\bin combination\b|\bconflicts? with\b|\bbackwards?[- ]compatib\w*|\bcompatib\w*|\bfeature flags?\b|\bwhen both\b`)
)

// lineTest is MET when at least n body lines or headings match re.
func lineTest(re pattern, n int, what string) func(*view) result {
	return func(w *view) result {
		// The note lists five lines and "…" past them; fewer than n are
		// counted exactly.
		ls := w.grep(re, true, max(n, 6))
		if len(ls) < n {
			if len(ls) == 0 {
				return w.notFound(what)
			}
			return result{cites: w.cites(ls, 3), note: fmt.Sprintf("%d line(s) mention %s; %d needed", len(ls), what, n)}
		}
		return w.found(ls, fmt.Sprintf("%s at %s", capitalise(what), lineList(ls, 5)))
	}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
