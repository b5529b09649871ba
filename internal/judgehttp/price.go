package judgehttp

import "strings"

// LookupPrice finds the first of models in prices: by exact name, then by
// the name without a snapshot date suffix ("gpt-4.1-mini-2025-04-14" →
// "gpt-4.1-mini", "claude-haiku-4-5-20251001" → "claude-haiku-4-5"). It
// never matches by prefix otherwise: "gpt-4.1" must not price
// "gpt-4.1-mini".
func LookupPrice[P any](prices map[string]P, models ...string) (P, bool) {
	for _, m := range models {
		if m == "" {
			continue
		}
		if p, ok := prices[m]; ok {
			return p, true
		}
		if base, ok := withoutDate(m); ok {
			if p, ok := prices[base]; ok {
				return p, true
			}
		}
	}
	var zero P
	return zero, false
}

// withoutDate strips a trailing "-YYYY-MM-DD" or "-YYYYMMDD".
func withoutDate(model string) (string, bool) {
	i := strings.LastIndexByte(model, '-')
	if i < 0 {
		return "", false
	}
	if tail := model[i+1:]; len(tail) == 8 && digits(tail) {
		return model[:i], true
	}
	// -YYYY-MM-DD: three dash-separated groups of 4, 2 and 2 digits.
	if len(model) > 11 {
		tail := model[len(model)-11:]
		if tail[0] == '-' && digits(tail[1:5]) && tail[5] == '-' && digits(tail[6:8]) && tail[8] == '-' && digits(tail[9:11]) {
			return model[:len(model)-11], true
		}
	}
	return "", false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
