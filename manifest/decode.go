package manifest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/drydock-dev/drydock/fieldpath"
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

// ErrDuplicateKey is wrapped by the error about a mapping key written twice.
var ErrDuplicateKey = errors.New("duplicate key")

// DecodeOptions tune Decode.
type DecodeOptions struct {
	// LastKeyWins accepts duplicate mapping keys, keeping the last value
	// (KubeVela's reading of addon metadata). By default a duplicate key is an
	// error, as kubectl rejects it.
	LastKeyWins bool
	// Duplicate, when set, is given each duplicate mapping key (an error
	// located at the later key, wrapping ErrDuplicateKey) and the last
	// value wins, as kubectl's conversion of YAML to JSON keeps it.
	Duplicate func(error)
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
	d := NewDecoder(file, data, opts)
	var out []*Object
	for {
		objs, err := d.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
}

// Decoder reads a YAML stream document by document, as Decode does, for
// a caller that need not hold every object at once.
type Decoder struct {
	file string
	// data is the text being decoded: the stream, or what follows the
	// document separator after a syntax error (resume).
	data []byte
	opts DecodeOptions
	dec  *yaml.Decoder
	// lineBase is the number of file's lines before data.
	lineBase int
	lines    *lineIndex
	alone    bool
	err      error
	// resumable marks err as a syntax error the next call goes on after.
	resumable bool
}

// NewDecoder returns a decoder of the stream data named file.
func NewDecoder(file string, data []byte, opts DecodeOptions) *Decoder {
	d := newDecoder(file, data, 0, opts)
	d.alone = decodableAlone(data)
	return d
}

func newDecoder(file string, data []byte, lineBase int, opts DecodeOptions) *Decoder {
	d := &Decoder{file: file, data: data, opts: opts, dec: yaml.NewDecoder(bytes.NewReader(data)), lineBase: lineBase, lines: &lineIndex{data: data}}
	if len(data) > MaxInputBytes {
		d.err = At(Pos{File: file}, "%w: larger than %d bytes", ErrInvalidYAML, MaxInputBytes)
	}
	return d
}

// next parses the next document; io.EOF after the last. After an error
// the decoder is done.
func (d *Decoder) next() (*yaml.Node, error) {
	if d.err != nil {
		return nil, d.err
	}
	var doc yaml.Node
	if err := d.dec.Decode(&doc); err != nil {
		d.err = err
		if !errors.Is(err, io.EOF) {
			d.err = yamlError(d.file, d.data, d.lineBase, err)
			d.resumable = true
		}
		return nil, d.err
	}
	return &doc, nil
}

// Next returns the objects of the next document: none for an empty
// document, the items of a List, else one. It returns io.EOF after the
// last document. After an error in a document (a syntax error included)
// the next call goes on with the document that starts after it: at the
// first "---" line from the error's on (io.EOF when there is none), so that
// one bad document does not hide the errors and objects of the others.
func (d *Decoder) Next() ([]*Object, error) {
	if d.resumable {
		d.resume()
	}
	doc, err := d.next()
	if err != nil {
		return nil, err
	}
	objs, aliases, err := decodeDocument(d.file, d.lines, d.lineBase, doc, d.opts)
	if err != nil {
		return nil, err // the parser is past the document already
	}
	if d.alone && !aliases && len(objs) == 1 && objs[0].ListItem == "" {
		objs[0].doc = &Document{file: d.file, text: d.data[d.lines.start(doc.Line):], line: doc.Line + d.lineBase, opts: d.opts}
	}
	return objs, nil
}

// resume starts decoding again at the first document separator ("---" at
// the start of a line) from the line of the syntax error d.err on (a
// document that starts where go-yaml found the one before it unfinished
// is read), past the first line of what was being decoded, or ends the
// stream (io.EOF) when there is none.
func (d *Decoder) resume() {
	d.resumable = false
	pos, _ := PosOf(d.err)
	d.err = io.EOF
	for n := max(pos.Line-d.lineBase, 2); ; n++ {
		line, ok := d.lines.line(n)
		if !ok {
			return
		}
		if rest, sep := bytes.CutPrefix(line, []byte("---")); sep && (len(bytes.TrimSpace(rest)) == 0 || rest[0] == ' ' || rest[0] == '\t') {
			start := d.lines.start(n)
			d.data, d.lineBase = d.data[start:], d.lineBase+n-1
			d.dec, d.lines, d.err = yaml.NewDecoder(bytes.NewReader(d.data)), &lineIndex{data: d.data}, nil
			return
		}
	}
}

// Document is the text of one document of a YAML stream, from which its
// object can be decoded again later instead of being kept in memory.
type Document struct {
	file string
	// text runs from the document's first line (its "---") to the end of
	// the stream; line is the number of that line in the file.
	text []byte
	line int
	opts DecodeOptions
}

// Document returns the document o was decoded from, when o can be decoded
// again from it alone: o is not an item of a List, and its document uses
// no anchor (which go-yaml shares across the documents of a stream), no
// directive and no line break but LF and CRLF.
func (o *Object) Document() (*Document, bool) { return o.doc, o.doc != nil }

// Decode decodes the document again: the object, field positions
// included, is the one Decode returned from the whole stream.
func (d *Document) Decode() (*Object, error) {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(d.text)).Decode(&doc); err != nil {
		return nil, yamlError(d.file, d.text, d.line-1, err)
	}
	objs, _, err := decodeDocument(d.file, &lineIndex{data: d.text}, d.line-1, &doc, d.opts)
	if err != nil {
		return nil, err
	}
	if len(objs) != 1 {
		return nil, At(Pos{File: d.file, Line: d.line}, "%w: the document no longer holds one object", ErrInvalidYAML)
	}
	objs[0].doc = d
	return objs[0], nil
}

// WithKeyPositions returns o with the positions of its mapping keys (see
// KeyPos), decoded again from its document with DecodeOptions.KeyPositions:
// for the rare message about a key, without every object paying for
// them. It returns o itself when o has them or cannot be decoded alone
// again (Document).
func (o *Object) WithKeyPositions() *Object {
	if o.doc == nil || o.doc.opts.KeyPositions {
		return o
	}
	d := *o.doc
	d.opts.KeyPositions = true
	again, err := d.Decode()
	if err != nil {
		return o
	}
	return again
}

// decodableAlone reports whether each document of data can be decoded
// from its first line on: no directive (a line starting with %) and no
// line break that go-yaml counts but a newline count does not (a lone CR,
// NEL, LS, PS).
func decodableAlone(data []byte) bool {
	if bytes.HasPrefix(data, []byte("%")) || bytes.Contains(data, []byte("\n%")) ||
		bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029")) {
		return false
	}
	return bytes.Count(data, []byte("\r")) == bytes.Count(data, []byte("\r\n"))
}

// lineIndex finds where the lines of data start, scanning only as far as
// asked.
type lineIndex struct {
	data   []byte
	starts []int // starts[i] is the offset of line i+1
}

// start returns the offset of the 1-based line n (len(data) past the end).
func (x *lineIndex) start(n int) int {
	if x.starts == nil {
		x.starts = []int{0}
	}
	for len(x.starts) < n {
		last := x.starts[len(x.starts)-1]
		i := bytes.IndexByte(x.data[last:], '\n')
		if i < 0 {
			return len(x.data)
		}
		x.starts = append(x.starts, last+i+1)
	}
	return x.starts[n-1]
}

// line returns the 1-based line n without its line break; false past
// the last line (or before the first).
func (x *lineIndex) line(n int) ([]byte, bool) {
	if n < 1 {
		return nil, false
	}
	s := x.start(n)
	if len(x.starts) < n {
		return nil, false
	}
	if e := bytes.IndexByte(x.data[s:], '\n'); e >= 0 {
		return x.data[s : s+e], true
	}
	return x.data[s:], true
}

func decodeDocument(file string, lines *lineIndex, lineBase int, doc *yaml.Node, opts DecodeOptions) ([]*Object, bool, error) {
	v, c, err := convertDocument(file, lines, lineBase, doc, opts)
	if err != nil || v.Data == nil {
		return nil, false, err
	}
	m, ok := v.Data.(map[string]any)
	if !ok {
		return nil, false, At(v.Pos, "%w: a document must be a mapping, found %s", ErrInvalidYAML, kindName(doc.Content[0]))
	}
	obj := &Object{Data: m, Pos: v.Pos, fields: v.fields}
	if opts.KeepLists || !isList(m) {
		return []*Object{obj}, c.aliases, nil
	}
	items, err := obj.listItems()
	return items, c.aliases, err
}

// convertDocument converts one document, whatever it holds; an empty document
// is a nil Data positioned at the document's start.
func convertDocument(file string, lines *lineIndex, lineBase int, doc *yaml.Node, opts DecodeOptions) (Value, *converter, error) {
	c := &converter{file: file, opts: opts, fields: map[string]Pos{}, lines: lines, lineBase: lineBase}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return Value{Pos: Pos{File: file, Line: max(doc.Line, 1) + lineBase}}, c, nil
	}
	root := doc.Content[0]
	v, err := c.value(root, "", 0)
	if err != nil {
		return Value{}, nil, err
	}
	return Value{Data: v, Pos: c.pos(root), fields: c.fields}, c, nil
}

// Value is one YAML or JSON document as written, whatever it holds: a
// mapping, a sequence, a scalar, or nothing (nil Data: an empty document
// or a null), with where it starts. Plain manifests' rules see documents
// this way, as conftest does.
type Value struct {
	// Data is the document in the JSON data model.
	Data any
	// Pos is where the value starts (the document's first line when it
	// is empty).
	Pos Pos
	// fields maps a field path under the value to its position.
	fields map[string]Pos
}

// Object returns the value as an object when it is a mapping.
func (v Value) Object() (*Object, bool) {
	m, ok := v.Data.(map[string]any)
	if !ok {
		return nil, false
	}
	return &Object{Data: m, Pos: v.Pos, fields: v.fields}, true
}

// Elements returns the elements of a sequence value, each positioned
// where it is written; nil for any other value.
func (v Value) Elements() []Value {
	s, ok := v.Data.([]any)
	if !ok {
		return nil
	}
	fields := elementFields(v.fields, "", len(s))
	out := make([]Value, len(s))
	for i, e := range s {
		pos, ok := fields[i][""]
		if !ok {
			pos = v.Pos
		}
		out[i] = Value{Data: e, Pos: pos, fields: fields[i]}
	}
	return out
}

// DecodeValues reads every document of the YAML (or JSON) stream data,
// which starts at line firstLine of file (1 for a whole file), as a
// Value: an empty document is a nil one; nothing is expanded (a List stays
// one document) and no document has to be a mapping.
func DecodeValues(file string, data []byte, firstLine int, opts DecodeOptions) ([]Value, error) {
	d := newDecoder(file, data, max(firstLine, 1)-1, opts)
	var out []Value
	for {
		doc, err := d.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		v, _, err := convertDocument(file, d.lines, d.lineBase, doc, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
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
		return nil, At(o.FieldPos(fieldpath.New("items")), "%w: List items must be a sequence", ErrInvalidYAML)
	}
	fields := elementFields(o.fields, "items", len(items))
	out := make([]*Object, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, At(o.FieldPos(fieldpath.New("items", i)), "%w: List item %d must be a mapping", ErrInvalidYAML, i)
		}
		prefix := fieldpath.New("items", i)
		out = append(out, &Object{Data: m, Pos: o.FieldPos(prefix), fields: fields[i], ListItem: prefix.String()})
	}
	return out, nil
}

// ExpandList returns the items of a `kind: List` object (of any kind
// ending in List with items), else o alone.
func (o *Object) ExpandList() ([]*Object, error) {
	if !isList(o.Data) {
		return []*Object{o}, nil
	}
	return o.listItems()
}

// elementFields splits the positions of the fields under the n elements
// of the sequence at path base ("" for the root) by element, in one pass:
// out[i] holds element i's, keyed by their path below it ("" for the
// element itself).
func elementFields(fields map[string]Pos, base string, n int) []map[string]Pos {
	out := make([]map[string]Pos, n)
	for i := range out {
		out[i] = map[string]Pos{}
	}
	for p, pos := range fields {
		rest, ok := strings.CutPrefix(p, base)
		if !ok || !strings.HasPrefix(rest, "[") {
			continue
		}
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			continue
		}
		i, err := strconv.Atoi(rest[1:end])
		if err != nil || i < 0 || i >= n {
			continue
		}
		if sub := rest[end+1:]; sub == "" || sub[0] == '.' || sub[0] == '[' {
			out[i][strings.TrimPrefix(sub, ".")] = pos
		}
	}
	return out
}

type converter struct {
	lines *lineIndex
	// lineBase is added to go-yaml's line numbers: the lines before the
	// text decoded.
	lineBase int
	// aliases is set when the document uses an alias.
	aliases bool
	file    string
	opts    DecodeOptions
	fields  map[string]Pos
	// expanding is the outermost alias being expanded (nil outside
	// aliases); expanded counts the nodes aliases produced.
	expanding     *yaml.Node
	expandingPath string
	expanded      int
}

func (c *converter) pos(n *yaml.Node) Pos {
	return Pos{File: c.file, Line: n.Line + c.lineBase, Col: n.Column}
}

func (c *converter) errorf(n *yaml.Node, format string, args ...any) error {
	return At(c.pos(n), "%w: %s", ErrInvalidYAML, fmt.Sprintf(format, args...))
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
		c.aliases = true
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
			v, err := c.value(e, fieldpath.Index(i).After(path), depth+1)
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
			if c.opts.Duplicate == nil {
				return nil, At(c.pos(kn), "%w: %w %q (first defined at line %d)", ErrInvalidYAML, ErrDuplicateKey, key, line)
			}
			c.opts.Duplicate(At(c.pos(kn), "%w %q (first defined at line %d)", ErrDuplicateKey, key, line))
		}
		seen[key] = kn.Line + c.lineBase
		child := fieldpath.Key(key).After(path)
		if c.opts.KeyPositions {
			c.fields[child+keySuffix] = c.pos(kn)
		}
		if c.opts.LastKeyWins || c.opts.Duplicate != nil {
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
		return "", c.errorf(kn, "a mapping key may not be null (JSON keys are strings)")
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	}
	return fmt.Sprint(v), nil
}

// scalar resolves a scalar the way sigs.k8s.io/yaml (YAML 1.1) does: a
// quoted or block scalar is a string unless it has an explicit tag
// (`!!int "7"` is 7, `!!binary` is the decoded text, `!!int 1.5` and
// `!!null x` are errors); a number JSON cannot hold (.inf, .nan,
// `!!float 1e400`; a plain 1e400 is a string) is an error, as converting
// to JSON is.
func (c *converter) scalar(n *yaml.Node) (any, error) {
	tagged := n.Style&yaml.TaggedStyle != 0
	if !tagged && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value, nil
	}
	switch tag := n.ShortTag(); tag {
	case "!!null":
		if tagged && !isNull(n.Value) {
			return nil, c.errorf(n, "invalid null %q", n.Value)
		}
		return nil, nil
	case "!!bool":
		b, ok := yaml11Bool(n.Value)
		if !ok {
			return nil, c.errorf(n, "invalid bool %q", n.Value)
		}
		return b, nil
	case "!!int", "!!float":
		var v any
		if tag == "!!int" {
			v = parseInt(n.Value)
		} else {
			v = parseFloat(n.Value)
		}
		switch x := v.(type) {
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, c.errorf(n, "%s is not a number JSON can hold", n.Value)
			}
			if tagged && tag == "!!int" && x != math.Trunc(x) {
				return nil, c.errorf(n, "invalid int %q", n.Value)
			}
		case string:
			if tagged {
				return nil, c.errorf(n, "invalid %s %q", tag[2:], x)
			}
		}
		return v, nil
	case "!!binary":
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(n.Value), ""))
		if err != nil {
			return nil, c.errorf(n, "invalid !!binary: %v", err)
		}
		return string(b), nil
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

// isNull reports whether s is one of YAML's ways to write null.
func isNull(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
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

func parseInt(s string) any {
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
		if ferr != nil && !errors.Is(ferr, strconv.ErrRange) {
			return s
		}
		return f
	}
	if neg {
		return -int64(u)
	}
	return int64(u)
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
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return s
	}
	return f // out of range: ±Inf, which scalar refuses
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
	for i := n.Line + 1; ; i++ {
		line, ok := c.lines.line(i)
		if !ok {
			break
		}
		line = bytes.TrimRight(line, "\r")
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 {
			continue
		}
		return Pos{File: c.file, Line: n.Line + 1 + c.lineBase, Col: len(line) - len(trimmed) + 1}
	}
	return Pos{File: c.file, Line: n.Line + 1 + c.lineBase, Col: 1}
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
