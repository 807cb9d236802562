package scoring

import "strings"

// Well-known technical terms: the names of encodings, hashes, ciphers,
// protocols, standards, formats and bodies that every technical reader
// knows. Two tests lean on them, for the same reason — such a name is
// neither a requirement nor a term the document must define:
//
//   - requirement coverage and the rule judge's no-hallucination test
//     read "PREFIX-number" as a requirement id; "SHA-256", "ISO-8601",
//     "UTF-8", "RFC-9110" or "GPT-4" have that shape but name a standard,
//     so their prefixes are never requirement schemes;
//   - the acronym test (CLA-4) asks for acronyms to be expanded at first
//     use; "UTF-8", "HMAC", "JWT" or "gzip" are not the document's own
//     terms, and asking for their expansion would reward padding.
//
// The lists are closed and lower-risk by design: a term missing from them
// costs one criterion, a domain acronym wrongly added would hide an
// undefined term.

// standardPrefixes are the upper-case prefixes of "PREFIX-number" names
// that denote a standard, an algorithm or a product version, not a
// requirement: SHA-256, MD-5, UTF-8, ISO-8601, RFC-9110, TLS-1.3,
// CVE-2024, GPT-4. Single letters are too common as requirement prefixes
// (R-7, P-1) to list; the two standards of that shape are named whole.
var standardPrefixes = setOf(
	// hashes, checksums, ciphers, curves
	"SHA", "MD", "CRC", "AES", "DES", "RSA", "ECDSA", "ECDH", "EDDSA", "HMAC", "BLAKE",
	// encodings and character sets
	"UTF", "UCS", "ASCII", "ISO", "KOI", "BASE", "LATIN",
	// protocols and their versions
	"TLS", "SSL", "DTLS", "HTTP", "HTTPS", "IPV", "SMB", "SNMP", "SSH", "OAUTH", "MQTT",
	// standards bodies and catalogues
	"RFC", "IEC", "IEEE", "ANSI", "NIST", "FIPS", "ECMA", "ITU", "ETSI",
	"CVE", "CWE", "CAPEC", "GHSA", "PEP", "JSR", "WCAG", "SOC",
	// models and product versions
	"GPT", "CLAUDE", "LLAMA", "COVID",
)

// isStandardPrefix reports whether id ("SHA-256") is the name of a
// standard, algorithm or version rather than a requirement id.
func isStandardPrefix(id string) bool {
	id = strings.ToUpper(id)
	switch id {
	case "X-509", "P-256", "P-384", "P-521":
		return true
	}
	prefix, _, _ := strings.Cut(id, "-")
	return standardPrefixes[prefix]
}

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}
