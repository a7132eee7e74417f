package report

import (
	"fmt"
	"strings"
)

// Count is n and the noun, singular for one and plural otherwise: "1
// object", "0 objects", "2 policies". The noun is given in the singular;
// its plural is made by the English rules its nouns need (policy →
// policies, match → matches).
func Count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %s", n, Plural(noun))
}

// Plural is the plural of the English noun (or of a phrase's last word:
// "definition test" → "definition tests").
func Plural(noun string) string {
	last := noun[strings.LastIndexByte(noun, ' ')+1:]
	switch {
	case last == "":
		return noun
	case strings.HasSuffix(last, "y") && len(last) > 1 && !strings.ContainsRune("aeiou", rune(last[len(last)-2])):
		return noun[:len(noun)-1] + "ies"
	case strings.HasSuffix(last, "s"), strings.HasSuffix(last, "x"), strings.HasSuffix(last, "sh"), strings.HasSuffix(last, "ch"):
		return noun + "es"
	}
	return noun + "s"
}
