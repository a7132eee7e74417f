package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Limits bound what one input may make the decoder do.
const (
	// MaxInputBytes is the largest input file accepted.
	MaxInputBytes = 64 << 20
	// MaxDepth is the deepest nesting of mappings and sequences accepted.
	MaxDepth = 200
	// MaxAliasNodes is how many nodes alias expansion may produce per
	// document: every mapping, sequence and scalar reached through an alias
	// counts, however deeply aliases nest (a "billion laughs" document has
	// few aliases but expands without bound).
	MaxAliasNodes = 100_000
)

// ErrInvalidYAML is wrapped by every error about malformed YAML input.
var ErrInvalidYAML = errors.New("invalid YAML")

// posErrorf is a decoding error at a place in the input.
func posErrorf(p Pos, format string, args ...any) error {
	return At(p, format, args...)
}

// DecodeOptions tune Decode.
type DecodeOptions struct {
	// LastKeyWins accepts duplicate mapping keys, keeping the last value
	// (KubeVela's reading of addon metadata). By default a duplicate key is an
	// error, as kubectl rejects it.
	LastKeyWins bool
	// KeepLists keeps `kind: List` documents whole instead of expanding items.
	KeepLists bool
	// KeyPositions records where each mapping key is written, for
	// Object.KeyPos (off by default: it doubles the positions kept).
	KeyPositions bool
}

// Decode reads a multi-document YAML (or JSON) stream named file into
// objects. Empty documents are skipped; a document that is not a mapping is
// an error; `kind: List` documents are expanded into their items.
func Decode(file string, data []byte, opts DecodeOptions) ([]*Object, error) {
	if len(data) > MaxInputBytes {
		return nil, posErrorf(Pos{File: file}, "%w: larger than %d bytes", ErrInvalidYAML, MaxInputBytes)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*Object
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, yamlError(file, data, err)
		}
		objs, err := decodeDocument(file, data, &doc, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
}

func decodeDocument(file string, data []byte, doc *yaml.Node, opts DecodeOptions) ([]*Object, error) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	c := &converter{file: file, opts: opts, fields: map[string]Pos{}, data: data}
	v, err := c.value(root, "", 0)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, posErrorf(c.pos(root), "%w: a document must be a mapping, found %s", ErrInvalidYAML, kindName(root))
	}
	obj := &Object{Data: m, Pos: c.pos(root), fields: c.fields}
	if opts.KeepLists || !isList(m) {
		return []*Object{obj}, nil
	}
	return obj.listItems()
}

func isList(m map[string]any) bool {
	kind, _ := m["kind"].(string)
	_, hasItems := m["items"]
	return hasItems && strings.HasSuffix(kind, "List")
}

// listItems splits a List object into its items, keeping field positions.
func (o *Object) listItems() ([]*Object, error) {
	items, ok := o.Data["items"].([]any)
	if !ok {
		if o.Data["items"] == nil {
			return nil, nil
		}
		return nil, posErrorf(o.FieldPos("items"), "%w: List items must be a sequence", ErrInvalidYAML)
	}
	out := make([]*Object, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, posErrorf(o.FieldPos(Path("items", i)), "%w: List item %d must be a mapping", ErrInvalidYAML, i)
		}
		prefix := Path("items", i)
		item := &Object{Data: m, Pos: o.FieldPos(prefix), fields: map[string]Pos{}, ListItem: prefix}
		for p, pos := range o.fields {
			if rest, ok := strings.CutPrefix(p, prefix); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
				item.fields[strings.TrimPrefix(rest, ".")] = pos
			}
		}
		out = append(out, item)
	}
	return out, nil
}

// yamlError positions a syntax error of the YAML library, which only says
// "line N" in its text. Its parser errors ("did not find expected ...")
// give a 0-based line (of the construct being parsed, or of where the
// problem was found when the construct starts on the first line; its
// scanner errors are 1-based): drydock reports the 1-based line, at most
// the file's last.
func yamlError(file string, data []byte, err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	// go-yaml reports an alias to an undefined anchor without its line.
	var name string
	if _, scanErr := fmt.Sscanf(msg, "unknown anchor %s referenced", &name); scanErr == nil {
		name = strings.Trim(name, "'")
		if p, ok := aliasPos(file, data, name); ok {
			return posErrorf(p, "%w: unknown anchor '%s' referenced (no &%s before it)", ErrInvalidYAML, name, name)
		}
	}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, convErr := strconv.Atoi(rest[:i]); convErr == nil {
				text := strings.TrimSpace(rest[i+1:])
				if strings.HasPrefix(text, "did not find expected") {
					n = min(n+1, bytes.Count(bytes.TrimRight(data, "\n"), []byte("\n"))+1)
				}
				return posErrorf(Pos{File: file, Line: n}, "%w near line %d: %s", ErrInvalidYAML, n, text)
			}
		}
	}
	return posErrorf(Pos{File: file}, "%w: %s", ErrInvalidYAML, msg)
}

type converter struct {
	data   []byte
	lines  [][]byte
	file   string
	opts   DecodeOptions
	fields map[string]Pos
	// expanding is the outermost alias being expanded (nil outside
	// aliases); expanded counts the nodes aliases produced.
	expanding     *yaml.Node
	expandingPath string
	expanded      int
}

func (c *converter) pos(n *yaml.Node) Pos { return Pos{File: c.file, Line: n.Line, Col: n.Column} }

func (c *converter) errorf(n *yaml.Node, format string, args ...any) error {
	return posErrorf(c.pos(n), "%w: %s", ErrInvalidYAML, fmt.Sprintf(format, args...))
}

func (c *converter) value(n *yaml.Node, path string, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, c.errorf(n, "nesting deeper than %d levels at %s", MaxDepth, orTop(path))
	}
	if path != "" {
		if _, seen := c.fields[path]; !seen {
			c.fields[path] = c.pos(n)
		}
	}
	if c.expanding != nil {
		if c.expanded++; c.expanded > MaxAliasNodes {
			return nil, c.errorf(c.expanding, "alias *%s at %s: aliases expand to more than %d nodes", c.expanding.Value, orTop(c.expandingPath), MaxAliasNodes)
		}
	}
	switch n.Kind {
	case yaml.AliasNode:
		if c.expanding != nil {
			return c.value(n.Alias, path, depth+1)
		}
		c.expanding, c.expandingPath = n, path
		defer func() { c.expanding = nil }()
		return c.value(n.Alias, path, depth+1)
	case yaml.MappingNode:
		return c.mapping(n, path, depth)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, e := range n.Content {
			v, err := c.value(e, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && path != "" {
			c.fields[path+blockSuffix] = c.blockStart(n)
		}
		return c.scalar(n)
	}
	return nil, c.errorf(n, "unexpected %s", kindName(n))
}

func (c *converter) mapping(n *yaml.Node, path string, depth int) (map[string]any, error) {
	out := make(map[string]any, len(n.Content)/2)
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Tag == "!!merge" {
			if err := c.merge(out, vn, path, depth); err != nil {
				return nil, err
			}
			continue
		}
		key, err := c.key(kn)
		if err != nil {
			return nil, err
		}
		if line, dup := seen[key]; dup && !c.opts.LastKeyWins {
			return nil, c.errorf(kn, "duplicate key %q (first defined at line %d)", key, line)
		}
		seen[key] = kn.Line
		child := key
		if path != "" {
			child = path + "." + key
		}
		if c.opts.KeyPositions {
			c.fields[child+keySuffix] = c.pos(kn)
		}
		if c.opts.LastKeyWins {
			delete(c.fields, child)
		}
		v, err := c.value(vn, child, depth+1)
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
	return out, nil
}

// merge applies a YAML merge key: keys already present win.
func (c *converter) merge(out map[string]any, vn *yaml.Node, path string, depth int) error {
	v, err := c.value(vn, path, depth+1)
	if err != nil {
		return err
	}
	var maps []map[string]any
	switch x := v.(type) {
	case map[string]any:
		maps = append(maps, x)
	case []any:
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				maps = append(maps, m)
			}
		}
	}
	if len(maps) == 0 {
		return c.errorf(vn, "merge key value must be a mapping")
	}
	for _, m := range maps {
		for k, e := range m {
			if _, ok := out[k]; !ok {
				out[k] = e
			}
		}
	}
	return nil
}

func (c *converter) key(kn *yaml.Node) (string, error) {
	if kn.Kind == yaml.AliasNode {
		kn = kn.Alias
	}
	if kn.Kind != yaml.ScalarNode {
		return "", c.errorf(kn, "mapping keys must be scalars")
	}
	v, err := c.scalar(kn)
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case nil:
		return "null", nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	}
	return fmt.Sprint(v), nil
}

// scalar resolves a scalar the way sigs.k8s.io/yaml (YAML 1.1) does.
func (c *converter) scalar(n *yaml.Node) (any, error) {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value, nil
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		b, ok := yaml11Bool(n.Value)
		if !ok {
			return nil, c.errorf(n, "invalid bool %q", n.Value)
		}
		return b, nil
	case "!!int":
		return parseInt(n.Value)
	case "!!float":
		return parseFloat(n.Value), nil
	case "!!str":
		// YAML 1.1 reads plain y/yes/on/off... as bools; an explicit !!str does not.
		if n.Style&yaml.TaggedStyle == 0 {
			if b, ok := yaml11Bool(n.Value); ok {
				return b, nil
			}
		}
	}
	return n.Value, nil
}

func yaml11Bool(s string) (bool, bool) {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true, true
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return false, true
	}
	return false, false
}

func parseInt(s string) (any, error) {
	clean := strings.ReplaceAll(s, "_", "")
	neg := strings.HasPrefix(clean, "-")
	body := strings.TrimLeft(clean, "+-")
	var (
		u   uint64
		err error
	)
	switch {
	case strings.HasPrefix(body, "0b"):
		u, err = strconv.ParseUint(body[2:], 2, 64)
	case strings.HasPrefix(body, "0o"):
		u, err = strconv.ParseUint(body[2:], 8, 64)
	case strings.HasPrefix(body, "0x"):
		u, err = strconv.ParseUint(body[2:], 16, 64)
	case len(body) > 1 && body[0] == '0' && strings.Trim(body, "01234567") == "":
		u, err = strconv.ParseUint(body[1:], 8, 64)
	default:
		u, err = strconv.ParseUint(body, 10, 64)
	}
	if err != nil || u > math.MaxInt64 {
		f, ferr := strconv.ParseFloat(clean, 64)
		if ferr != nil {
			return s, nil
		}
		return f, nil
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}

func parseFloat(s string) any {
	switch strings.ToLower(strings.TrimLeft(s, "+")) {
	case ".inf":
		return math.Inf(1)
	case "-.inf":
		return math.Inf(-1)
	case ".nan":
		return math.NaN()
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil {
		return s
	}
	return f
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.ScalarNode:
		return fmt.Sprintf("the scalar %q", n.Value)
	case yaml.MappingNode:
		return "a mapping"
	}
	return "an alias"
}

const (
	blockSuffix = "#block"
	keySuffix   = "#key"
)

// blockStart finds where the content of a block scalar starts: the line
// after its indicator, at the block's indentation.
func (c *converter) blockStart(n *yaml.Node) Pos {
	if c.lines == nil {
		c.lines = bytes.Split(c.data, []byte("\n"))
	}
	lines := c.lines
	for i := n.Line; i < len(lines); i++ {
		line := bytes.TrimRight(lines[i], "\r")
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 {
			continue
		}
		return Pos{File: c.file, Line: n.Line + 1, Col: len(line) - len(trimmed) + 1}
	}
	return Pos{File: c.file, Line: n.Line + 1, Col: 1}
}

// orTop names a key path for messages ("the document" at the top).
func orTop(path string) string {
	if path == "" {
		return "the document"
	}
	return path
}

// aliasPos finds the first alias *name with no anchor &name before it:
// the alias go-yaml could not resolve (its decoder keeps anchors from one
// document of a stream to the next).
func aliasPos(file string, data []byte, name string) (Pos, bool) {
	defined := false
	for i, line := range strings.Split(string(data), "\n") {
		for col := 0; col < len(line); col++ {
			if (line[col] != '*' && line[col] != '&') || !isAnchorAt(line, col+1, name) || (col > 0 && !strings.ContainsRune(" \t[{,:-", rune(line[col-1]))) {
				continue
			}
			if line[col] == '&' {
				defined = true
			} else if !defined {
				return Pos{File: file, Line: i + 1, Col: col + 1}, true
			}
		}
	}
	return Pos{}, false
}

// isAnchorAt reports whether line holds the anchor name name at i, ending
// there (followed by the end of the line, a space or a flow indicator).
func isAnchorAt(line string, i int, name string) bool {
	if !strings.HasPrefix(line[i:], name) {
		return false
	}
	end := i + len(name)
	return end == len(line) || strings.ContainsRune(" \t,[]{}", rune(line[end]))
}
