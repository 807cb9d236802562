package providertest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"regexp"
	"strings"

	"github.com/crucible-go/crucible/provider"
)

// Style is a way real models write a reply that is correct in substance:
// wrapped in prose, preceded by reasoning, with trailing commas, cut at
// the output limit, or not an answer at all.
type Style string

// The reply styles [Messy] can apply.
const (
	StyleClean          Style = "clean"           // the reply as the model under it wrote it
	StyleProse          Style = "prose"           // a sentence before and after
	StyleThink          Style = "think"           // a <think>…</think> preamble
	StyleThinkDraft     Style = "think-draft"     // a fenced draft inside <think>, then the final answer
	StyleTrailingCommas Style = "trailing-commas" // a comma before every closing brace and bracket of the JSON
	StyleNumberStrings  Style = "number-strings"  // confidences written as strings ("80")
	StyleTruncated      Style = "truncated"       // cut to its first half, finish reason length
	StyleRefusalText    Style = "refusal-text"    // a refusal sentence instead of the answer
	StyleRefusalError   Style = "refusal-error"   // the adapter's refusal error
	StyleEmpty          Style = "empty"           // no text at all
)

// Styles lists every style, clean first.
var Styles = []Style{StyleClean, StyleProse, StyleThink, StyleThinkDraft, StyleTrailingCommas, StyleNumberStrings,
	StyleTruncated, StyleRefusalText, StyleRefusalError, StyleEmpty}

// MessyOptions chooses which calls get which style.
type MessyOptions struct {
	// Style is applied to the calls Match selects (every call when nil).
	Style Style
	Match func(provider.Request) bool
	// EveryAttempt applies the style to retries too; by default only the
	// first attempt of a call (no "attempt" tag) is messy, so a retry can
	// recover.
	EveryAttempt bool
	// Mix, when non-empty, draws each selected call's style from these,
	// seeded by Seed and the call's identity and attempt (as
	// [InjectFaults] decides faults), instead of using Style.
	Mix  []Style
	Seed int64
}

// Messy returns middleware that rewrites the replies of the provider under
// it — correct answers — into the shapes real models produce, so that a
// seam's tests can show each is recovered, degraded with a warning, or a
// clear failure, and never silently kept wrong.
func Messy(o MessyOptions) provider.Middleware {
	return func(next provider.Provider) provider.Provider {
		return provider.Func(func(ctx context.Context, req provider.Request) (provider.Response, error) {
			if o.Match != nil && !o.Match(req) || !o.EveryAttempt && req.Tag(provider.TagAttempt) != "" {
				return next.Complete(ctx, req)
			}
			style := o.Style
			if len(o.Mix) > 0 {
				style = o.Mix[pick(o.Seed, req, len(o.Mix))]
			}
			if style == StyleRefusalError {
				return provider.Response{}, &provider.Error{Kind: provider.ErrRefusal, Provider: "messy", Model: req.Model,
					Message: "the model declined the request"}
			}
			resp, err := next.Complete(ctx, req)
			if err != nil {
				return resp, err
			}
			resp.Text, resp.FinishReason = Restyle(style, resp.Text, resp.FinishReason)
			return resp, nil
		})
	}
}

func pick(seed int64, req provider.Request, n int) int {
	h := sha256.New()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(seed))
	h.Write(buf[:])
	h.Write([]byte(provider.Key(req)))
	return int(binary.LittleEndian.Uint64(h.Sum(nil)[:8]) % uint64(n))
}

var (
	closingRE    = regexp.MustCompile(`([^\[{,\s])(\s*)([}\]])`)
	confidenceRE = regexp.MustCompile(`("confidence"\s*:\s*)(\d+)`)
	jsonFenceRE  = regexp.MustCompile("(?s)```json\n.*?\n```")
)

// Restyle rewrites one reply text into style and returns the finish
// reason it comes with.
func Restyle(style Style, text string, finish provider.FinishReason) (string, provider.FinishReason) {
	if finish == "" {
		finish = provider.FinishStop
	}
	switch style {
	case StyleProse:
		return "Sure — here is my answer.\n\n" + text + "\n\nLet me know if you need anything else.", finish
	case StyleThink:
		return "<think>\nLet me work through the request step by step before answering.\n</think>\n" + text, finish
	case StyleThinkDraft:
		return "<think>\nA first draft:\n```json\n{\"draft\": true, \"verdicts\": [], \"contradictions\": [{\"kind\": \"draft\"}]}\n```\n" +
			"```markdown\n# Draft\n\nNot the answer.\n```\nNo, that is wrong; the final answer follows.\n</think>\n" + text, finish
	case StyleTrailingCommas:
		return jsonFenceRE.ReplaceAllStringFunc(text, func(block string) string {
			body := strings.TrimSuffix(strings.TrimPrefix(block, "```json\n"), "\n```")
			return "```json\n" + closingRE.ReplaceAllString(body, "$1,$2$3") + "\n```"
		}), finish
	case StyleNumberStrings:
		return confidenceRE.ReplaceAllString(text, `$1"$2"`), finish
	case StyleTruncated:
		r := []rune(text)
		return string(r[:len(r)/2]), provider.FinishLength
	case StyleRefusalText:
		return "I'm sorry, but I can't help with that request.", finish
	case StyleEmpty:
		return "", finish
	}
	return text, finish
}
