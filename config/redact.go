package config

import (
	"regexp"
)

// userinfoRE finds the user:password@ part of URLs written in text: a
// scheme, "//", then anything up to an "@" that comes before the host's end.
var userinfoRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#@\s]*@`)

// RedactURL hides a URL's userinfo (http://user:pass@host/v1 becomes
// http://[redacted]@host/v1), so a password in a base URL is never printed,
// logged or stored. Text that holds no such URL is returned as it is.
func RedactURL(s string) string { return RedactText(s) }

// RedactText hides the userinfo of every URL written in s, for error
// messages and other text that may quote a base URL.
func RedactText(s string) string {
	return userinfoRE.ReplaceAllString(s, "${1}"+redacted+"@")
}
