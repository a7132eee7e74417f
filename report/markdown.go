package report

import (
	"strconv"
	"strings"
)

// MarkdownText is s as text in Markdown (GitHub's flavour) that stays
// text wherever it is put: in a paragraph, a list item, a table cell or
// an HTML block. Controls are made visible (Printable); line breaks
// become <br>; HTML (& < >), code spans (`), table cells (|), emphasis,
// links, escapes, math and mentions (\ * _ ~ [ ] $ @) are written as
// numeric character references, which Markdown shows as the character
// and never reads as markup.
func MarkdownText(s string) string {
	s = Printable(strings.ReplaceAll(s, "\r\n", "\n"))
	if !strings.ContainsAny(s, markdownSpecial+"\n") {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\n':
			b.WriteString("<br>")
		case r == '_' && i > 0 && i+1 < len(s) && isAlnum(s[i-1]) && isAlnum(s[i+1]):
			b.WriteByte('_') // within a word: never emphasis (apps_web.yaml)
		case strings.ContainsRune(markdownSpecial, r):
			b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// markdownSpecial are the characters MarkdownText writes as references.
const markdownSpecial = "&<>`|\\*_~[]$@"

// MarkdownCode is s in code type on one line: MarkdownText in an HTML
// <code> element, which a backtick, pipe or tag in s cannot end early;
// "" stays "".
func MarkdownCode(s string) string {
	if s == "" {
		return ""
	}
	return "<code>" + MarkdownText(s) + "</code>"
}

// MarkdownFence is body (controls made visible) in a fenced code block
// with the info string info, fenced by more backticks than any run in
// body, so no line of it can close the block.
func MarkdownFence(info, body string) string {
	body = Printable(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	return fence + info + "\n" + body + fence + "\n"
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}
