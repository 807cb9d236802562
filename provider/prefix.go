package provider

// MinCacheTokens is the shortest prefix worth marking for prompt caching:
// the vendors cache nothing shorter (Anthropic's minimum for Opus and
// Sonnet, and where OpenAI's automatic caching starts, are both 1,024
// tokens). A mark on a shorter prefix buys nothing, and on Anthropic a
// mark on a prefix that is never read again pays the cache-write premium
// for nothing, so seams mark a prefix only when several calls share it
// and it is at least this long.
const MinCacheTokens = 1024

// EstimateTokens estimates the tokens of text at four bytes a token — the
// usual figure for English prose and Markdown with the vendors'
// tokenisers, and the one the fakes of providertest use, so a test sees
// the same sizes the seams reason with.
func EstimateTokens(text string) int { return (len(text) + 3) / 4 }

// Cacheable reports whether a prefix — the system prompt and the
// messages up to and including the one a seam would mark — is long
// enough to cache ([MinCacheTokens]). Seams call it only for prefixes
// that several calls share; a single call marks nothing.
func Cacheable(system string, prefix ...Message) bool {
	n := len(system)
	for _, m := range prefix {
		n += len(m.Content) + 2
	}
	return (n+3)/4 >= MinCacheTokens
}
