package cli

import (
	"errors"
	"strings"

	"github.com/crucible-go/crucible/adversarial"
	"github.com/crucible-go/crucible/adversarial/critic"
	"github.com/crucible-go/crucible/adversarial/debate"
	"github.com/crucible-go/crucible/diff"
	"github.com/crucible-go/crucible/roadmap"
)

// userMessages gives the library's input errors the wording the commands
// have always printed (the command-line tools' documented messages). The
// library's own messages are lower-case, as Go error strings are; the
// capitalised sentences belong to the commands.
var userMessages = []struct {
	err  error
	text string
}{
	{adversarial.ErrTooFewFiles, "Adversarial comparison requires at least 2 files"},
	{adversarial.ErrTooManyFiles, "Maximum 10 files supported"},
	{adversarial.ErrFileNotFound, "File not found"},
	{adversarial.ErrModeConflict, "Cannot use --compare with --source/--generate/--agents"},
	{adversarial.ErrNoMode, "Must provide --compare (Mode A) or --source + --generate + --agents (Mode B)"},
	{adversarial.ErrModeBFlags, "Mode B requires all three flags: --source, --generate, --agents"},
	{debate.ErrTooFewAgents, "Adversarial comparison requires at least 2 agents"},
	{debate.ErrTooManyAgents, "Maximum 10 agents supported"},
	{debate.ErrTooFewAdvocates, "Debate aborted: fewer than 2 advocates remain"},
	{diff.ErrTooFewVariants, "Adversarial comparison requires at least 2 variants"},
	{diff.ErrTooManyVariants, "Maximum 10 variants supported"},
	{critic.ErrArtifactRequired, "Artifact path required"},
	{roadmap.ErrAgentCount, "Agent count must be 2-10"},
	{roadmap.ErrNoSpec, "A specification is required: give a spec file, or --specs for multi-spec consolidation"},
	{roadmap.ErrSpecAndSpecs, "Give a spec file or --specs, not both: --specs replaces the spec file"},
	{roadmap.ErrEmptySpec, "Specification is empty"},
}

// UserMessage returns err's text with the first library input error it
// wraps worded as the commands print it: "adversarial comparison requires
// at least 2 files, got 1" becomes "Adversarial comparison requires at
// least 2 files, got 1". Other errors keep their text.
func UserMessage(err error) string {
	msg := err.Error()
	for _, m := range userMessages {
		if errors.Is(err, m.err) {
			if lib := m.err.Error(); strings.Contains(msg, lib) {
				return strings.Replace(msg, lib, m.text, 1)
			}
		}
	}
	return msg
}
