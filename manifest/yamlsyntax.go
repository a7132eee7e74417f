package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml2 "go.yaml.in/yaml/v2"
)

// YAMLError positions a syntax error of the YAML library
// (go.yaml.in/yaml/v3) decoding data, the text of file, which only says
// "line N" in its text, and not always the line of the problem: see
// syntaxLine. drydock reports the 1-based line of the problem, at most
// the file's last, and its column where it can tell it.
func YAMLError(file string, data []byte, err error) error {
	return yamlError(file, data, 0, err)
}

// yamlError is YAMLError for data that starts after line lineBase of file.
func yamlError(file string, data []byte, lineBase int, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	// go-yaml reports an alias to an undefined anchor without its line.
	var name string
	if _, scanErr := fmt.Sscanf(msg, "unknown anchor %s referenced", &name); scanErr == nil {
		name = strings.Trim(name, "'")
		if p, ok := aliasPos(file, data, name); ok {
			p.Line += lineBase
			return At(p, "%w: unknown anchor '%s' referenced (no &%s before it)", ErrInvalidYAML, name, name)
		}
	}
	n, text, ok := syntaxMessage(msg)
	if !ok {
		return At(Pos{File: file}, "%w: %s", ErrInvalidYAML, msg)
	}
	at := syntaxAt(data, n, text)
	line := at.line + lineBase
	e := At(Pos{File: file, Line: line, Col: at.col}, "%w near line %d: %s%s", ErrInvalidYAML, line, text, at.note)
	if at.opened > 0 {
		e.Related = append(e.Related, Related{What: at.what, Pos: Pos{File: file, Line: at.opened + lineBase, Col: at.openedCol}})
	}
	return e
}

// syntaxMessage splits go-yaml's message "line N: text" (N is 0 when it
// names no line); ok is false for a message that is not a syntax error.
func syntaxMessage(msg string) (n int, text string, ok bool) {
	if rest, found := strings.CutPrefix(msg, "line "); found {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return n, strings.TrimSpace(rest[i+1:]), true
			}
		}
		return 0, "", false
	}
	if parserProblem(msg) || scannerProblem(msg) {
		return 0, msg, true
	}
	return 0, "", false
}

// parserProblem reports whether msg is a problem of libyaml's parser
// (parserc.go), whose marks go-yaml prints 0-based; its scanner's it
// prints 1-based.
func parserProblem(msg string) bool {
	switch msg {
	case "did not find expected <stream-start>", "did not find expected <document start>",
		"did not find expected node content", "did not find expected key", "did not find expected '-' indicator",
		"did not find expected ',' or ']'", "did not find expected ',' or '}'", "found undefined tag handle",
		"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive":
		return true
	}
	return false
}

// scannerProblem reports whether msg is one of libyaml's scanner's
// problems that drydock places (scannerc.go).
func scannerProblem(msg string) bool {
	for _, p := range []string{"found character that cannot start any token", "mapping values are not allowed",
		"found unexpected end of stream", "found a tab character", "could not find expected ':'",
		"block sequence entries are not allowed", "found unexpected document indicator"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// syntaxPlace is where a syntax error is: its 1-based line of data, its
// column (0: unknown), a note that says more than go-yaml's words, and
// the place (opened > 0) of what the problem leaves open.
type syntaxPlace struct {
	line, col         int
	note              string
	opened, openedCol int
	what              string
}

// syntaxAt places the syntax error text, which go-yaml (v3) reported at
// its line n of data. go-yaml v3 prints the line of the construct being
// parsed when the parser has one (a block mapping, a flow sequence, a
// quoted scalar: its context mark), not the line of the token where the
// problem is (its problem mark): a key indented one space too few in a
// long list is reported at the list's first line. go-yaml v2 (the same
// libyaml port, in go.mod already) prints the problem mark: data is
// parsed again with it, on this error path only, and where its message
// is the same, its line is the problem's. The unclosed quote of "found
// unexpected end of stream" is placed at the quote (the context).
func syntaxAt(data []byte, n int, text string) syntaxPlace {
	last := bytes.Count(bytes.TrimRight(data, "\n"), []byte("\n")) + 1
	v3line := n
	if parserProblem(text) && n > 0 {
		v3line = n + 1 // go-yaml's parser marks are 0-based
	}
	at := syntaxPlace{line: max(v3line, 1)}
	if m, same := problemLine(data, text); same {
		at.line = m
	}
	at.line = min(at.line, last)
	lines := &lineIndex{data: data}
	switch {
	case text == "found unexpected end of stream":
		// The context is the quoted scalar that never ends. go-yaml v3
		// names its line unless it is the first (then the stream's end).
		for _, l := range []int{n, 1} {
			if c := openQuote(lines, l); c > 0 {
				return syntaxPlace{line: l, col: c, note: " (a quoted string opened here is never closed)"}
			}
		}
	case strings.HasPrefix(text, "did not find expected ',' or"):
		// The flow collection left open is the context go-yaml v3 names
		// (unless it is on the first line).
		open := byte('[')
		if strings.HasSuffix(text, "'}'") {
			open = '{'
		}
		from := min(v3line, last)
		switch c := openBracket(lines, from, open); {
		case c > 0 && from == at.line:
			at.col, at.note = c, fmt.Sprintf(" (the %q here is never closed)", open)
		case c > 0 && from < at.line:
			at.opened, at.openedCol, at.what = from, c, fmt.Sprintf("the %q opened at", open)
		}
	case text == "did not find expected key" || text == "did not find expected '-' indicator" || text == "did not find expected <document start>":
		// The token the block collection did not expect starts its line
		// (a key or an entry indented wrongly).
		at.col = firstToken(lines, at.line)
	default:
		at.col = yamlErrorColumn(data, at.line, text)
	}
	return at
}

// problemLine parses data with go-yaml v2 and returns the 1-based line of
// its syntax error when its problem is text (same false otherwise).
func problemLine(data []byte, text string) (line int, same bool) {
	dec := yaml2.NewDecoder(bytes.NewReader(data))
	var err error
	for err == nil {
		var v any
		err = dec.Decode(&v)
	}
	var te *yaml2.TypeError
	if errors.As(err, &te) {
		return 0, false
	}
	n, got, ok := syntaxMessage(strings.TrimPrefix(err.Error(), "yaml: "))
	if !ok || got != text {
		return 0, false
	}
	if parserProblem(text) || n == 0 {
		n++ // 0-based, or the first line (v2 names no line 0)
	}
	return n, true
}

// firstToken is the 1-based column of the first character of line n that
// is not a space (0: none).
func firstToken(lines *lineIndex, n int) int {
	raw, ok := lines.line(n)
	if !ok {
		return 0
	}
	for i, c := range raw {
		if c != ' ' && c != '\t' && c != '\r' {
			return i + 1
		}
	}
	return 0
}

// openQuote is the 1-based column of the quote on line n that starts a
// quoted scalar the line does not close (0: none).
func openQuote(lines *lineIndex, n int) int {
	raw, ok := lines.line(n)
	if !ok {
		return 0
	}
	open, quote := 0, byte(0)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0 && c == quote:
			if quote == '\'' && i+1 < len(raw) && raw[i+1] == '\'' {
				i++ // '' is a quote inside single quotes
				continue
			}
			quote, open = 0, 0
		case quote == 0 && c == '#' && (i == 0 || raw[i-1] == ' '):
			return 0
		case quote == 0 && (c == '"' || c == '\'') && (i == 0 || strings.IndexByte(" \t[{,:-", raw[i-1]) >= 0):
			quote, open = c, i+1
		}
	}
	return open
}

// openBracket is the 1-based column of the last bracket open ('[' or
// '{') of line n outside quotes that the line does not close (0: none).
func openBracket(lines *lineIndex, n int, open byte) int {
	raw, ok := lines.line(n)
	if !ok {
		return 0
	}
	var stack []int
	quote := byte(0)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || raw[i-1] == ' '):
			i = len(raw)
		case c == '[' || c == '{':
			stack = append(stack, i+1)
		case (c == ']' || c == '}') && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if raw[stack[i]-1] == open {
			return stack[i]
		}
	}
	return 0
}

// yamlErrorColumn finds the column of go-yaml's error on line n, which
// go-yaml does not report, where the message tells it: the tab or
// reserved indicator (@, `) that cannot start a token, the colon of a
// mapping value not allowed there (the second on the line, as in
// "a: b: c", else the only one); else 0 (the position names the line
// only).
func yamlErrorColumn(data []byte, n int, msg string) int {
	if n < 1 {
		return 0
	}
	raw, ok := (&lineIndex{data: data}).line(n)
	if !ok {
		return 0
	}
	line := string(bytes.TrimRight(raw, "\r"))
	switch {
	case strings.HasPrefix(msg, "found a tab character"):
		if i := strings.IndexByte(line, '\t'); i >= 0 {
			return i + 1
		}
	case strings.HasPrefix(msg, "found character that cannot start any token"):
		for i := 0; i < len(line); i++ {
			if line[i] == '\t' || ((line[i] == '@' || line[i] == '`') && (i == 0 || strings.IndexByte(" [{,", line[i-1]) >= 0)) {
				return i + 1
			}
		}
	case strings.HasPrefix(msg, "mapping values are not allowed"):
		var colons []int
		quote := byte(0)
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == ':' && (i+1 == len(line) || line[i+1] == ' '):
				colons = append(colons, i+1)
			}
		}
		switch len(colons) {
		case 0:
			return 0
		case 1:
			return colons[0]
		}
		return colons[1]
	}
	return 0
}
