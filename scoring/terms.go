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

// knownAcronyms need no definition: every technical reader knows them.
// A token is looked up upper-cased and without a trailing version
// ("SHA256" → "SHA", "HTTP2" → "HTTP", "MD5" → "MD").
var knownAcronyms = setOf(
	// the web, data formats, files
	"API", "URL", "URI", "HTTP", "HTTPS", "JSON", "XML", "YAML", "YML", "TOML", "INI", "HTML", "CSS", "SQL", "CSV", "TSV",
	"PDF", "PNG", "JPEG", "JPG", "GIF", "SVG", "ZIP", "GZIP", "TAR", "MIME", "REST", "CRUD", "RPC", "GRPC", "SOAP",
	"WS", "WSS", "SSE", "CORS", "CSRF", "XSS", "DOM", "AJAX", "CDN", "JWT", "JWS", "JWE", "JWK", "OIDC", "OAUTH",
	"SAML", "LDAP", "SSO", "MFA", "TOTP", "OTP", "RBAC", "ACL", "IAM", "PII",
	// networks and protocols
	"TCP", "UDP", "IP", "IPV", "DNS", "TLS", "SSL", "SSH", "SFTP", "FTP", "SMTP", "IMAP", "POP", "NTP", "DHCP", "VPN",
	"LAN", "WAN", "NAT", "MQTT", "AMQP", "SNMP", "QUIC", "WEBRTC",
	// encodings, hashes, crypto
	"UTF", "ASCII", "UNICODE", "SHA", "MD", "CRC", "HMAC", "AES", "RSA", "ECDSA", "PEM", "DER", "PKI", "CA", "GPG", "PGP",
	// standards and bodies
	"ISO", "IEC", "IEEE", "RFC", "NIST", "FIPS", "OWASP", "CVE", "CWE", "GDPR", "HIPAA", "PCI", "SOC", "W3C", "ECMA",
	"ANSI", "UTC", "GMT", "POSIX",
	// computing
	"CPU", "GPU", "RAM", "SSD", "HDD", "OS", "IO", "USB", "VM", "UI", "UX", "GUI", "TUI", "CLI", "SDK", "IDE", "ID", "IDS",
	"UUID", "GUID", "URL", "CI", "CD", "QA", "PR", "MR", "LLM", "AI", "ML", "FAQ", "TTL", "RPS", "QPS", "CPUS",
	"KB", "MB", "GB", "TB", "KIB", "MIB", "GIB", "TIB", "MS", "NS", "US", "AM", "PM", "OK",
	// files, processes, logs, signals
	"NDJSON", "JSONL", "LOC", "SLOC", "EOF", "EOL", "CRLF", "LF", "STDIN", "STDOUT", "STDERR", "PID", "TTY", "ENV",
	"DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL", "TRACE", "CRITICAL",
	"SIGINT", "SIGTERM", "SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR", "SIGCHLD", "SIGPIPE",
	// business shorthand
	"KPI", "ROI", "ETA", "ASAP", "FYI", "TLDR", "MVP", "POC",
	// RFC 2119 keywords and document shorthand
	"MUST", "SHALL", "SHOULD", "MAY", "NOT", "REQUIRED", "RECOMMENDED", "OPTIONAL", "AND", "OR", "TODO", "TBD", "NA",
	"N/A", "FIXME", "WIP", "EU", "UK", "FR", "NFR", "REQ",
)

// emphasisWords are plain English words that documents write in capitals
// for emphasis ("the field IS used", "run ONE task", "BEFORE LAUNCH"):
// words, not acronyms.
var emphasisWords = setOf(
	"IS", "ARE", "WAS", "WERE", "BE", "NO", "ALL", "ANY", "ONLY", "NEVER", "ALWAYS", "NONE", "EACH", "EVERY", "BOTH",
	"ONE", "TWO", "THREE", "BEFORE", "AFTER", "DO", "DOES", "DONT", "WILL", "WONT", "CAN", "CANNOT", "WITHOUT", "WITH",
	"EXACTLY", "NEW", "OLD", "YES", "IF", "THEN", "ELSE", "WHEN", "BUT", "ALSO", "MORE", "LESS", "SAME", "THE", "THIS",
	"THAT", "IT", "IN", "ON", "OF", "TO", "AT", "BY", "FOR", "NOW", "ONCE", "FIRST", "LAST", "ALREADY", "STILL",
	"IMPORTANT", "NOTE", "CAUTION", "DEPRECATED", "BREAKING", "DONE", "STOP", "WHY", "WHAT", "HOW",
)

// englishSuffix reports a capitalised English word by its ending: five
// letters or more ending in -ED, -ING, -TION, -SION, -MENT, -NESS or -ABLE
// ("FIXED", "VERIFIED", "BLOCKING", "DEPRECATION"). Acronyms that long with those
// endings are rare; status words written in capitals are not.
func englishSuffix(t string) bool {
	if len(t) < 5 || strings.ContainsAny(t, "0123456789_") {
		return false
	}
	for _, suf := range []string{"ED", "ING", "TION", "SION", "MENT", "NESS", "ABLE"} {
		if strings.HasSuffix(t, suf) {
			return true
		}
	}
	return false
}

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

// isKnownAcronym reports whether a token needs no definition: a
// well-known acronym, with or without a version suffix, or an English word
// in capitals (for emphasis, or a status such as VERIFIED).
func isKnownAcronym(tok string) bool {
	t := strings.ToUpper(tok)
	if knownAcronyms[t] {
		return true
	}
	if emphasisWords[t] || englishSuffix(t) {
		return true
	}
	bare := strings.TrimRight(t, "0123456789.")
	return bare != t && len(bare) >= 2 && knownAcronyms[bare]
}

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}
