package parsers

// Parsers of languages (Dockerfile, Groovy, nginx, Jsonnet, textproto)
// and YAML: ports of conftest v0.71.1's parser/<name>/<name>.go
// (Apache-2.0) onto the same libraries.

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	groovylang "github.com/albertocavalcante/groovy-parser-go"
	groovycst "github.com/albertocavalcante/groovy-parser-go/cst"
	groovyparser "github.com/albertocavalcante/groovy-parser-go/parser"
	groovysource "github.com/albertocavalcante/groovy-parser-go/source"
	groovytoken "github.com/albertocavalcante/groovy-parser-go/token"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	dockerparser "github.com/moby/buildkit/frontend/dockerfile/parser"
	nginxconfig "github.com/tufanbarisyildirim/gonginx/config"
	nginxparser "github.com/tufanbarisyildirim/gonginx/parser"
	"sigs.k8s.io/yaml"
)

// parseYAML: parser/yaml/yaml.go: a stream split at "\n---\n" lines
// ("\r\n---\r\n" when the file has a CRLF) gives the list of its
// documents; one document gives its value.
func parseYAML(src []byte, _ Options) (any, error) {
	docs := yamlDocuments(src)
	if len(docs) == 1 {
		var v any
		if err := yaml.Unmarshal(src, &v); err != nil {
			return nil, fmt.Errorf("unmarshal yaml: %w", err)
		}
		return v, nil
	}
	out := make([]any, 0, len(docs))
	for _, d := range docs {
		var v any
		if err := yaml.Unmarshal(d, &v); err != nil {
			return nil, fmt.Errorf("unmarshal multiple documents: unmarshal subdocument yaml: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

// yamlDocuments is conftest's separateSubDocuments: a file starting
// with a directive keeps its first separator.
func yamlDocuments(src []byte) [][]byte {
	lb := []byte("\n")
	if bytes.Contains(src, []byte("\r\n")) {
		lb = []byte("\r\n")
	}
	sep := slices.Concat(lb, []byte("---"), lb)
	parts := bytes.Split(src, sep)
	if bytes.HasPrefix(src, []byte("%")) && len(parts) > 2 {
		first := slices.Concat(parts[0], sep, parts[1])
		return append([][]byte{first}, parts[2:]...)
	}
	if bytes.HasPrefix(src, []byte("%")) || len(parts) <= 1 {
		return [][]byte{src}
	}
	return parts
}

// dockerCommand is one instruction (or comment) of a Dockerfile as
// conftest gives it (parser/docker/docker.go Command; no JSON tags).
type dockerCommand struct {
	Cmd    string
	SubCmd string
	JSON   bool
	Flags  []string
	Value  []string
	Stage  int
}

// parseDockerfile: parser/docker/docker.go: the instructions, in a
// list of one (one document), comments as "comment" commands, each
// with the index of its build stage.
func parseDockerfile(src []byte, _ Options) (any, error) {
	res, err := dockerparser.Parse(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("parse dockerfile: %w", err)
	}
	var cmds []dockerCommand
	stages := 0
	for _, child := range res.AST.Children {
		instr, err := instructions.ParseInstruction(child)
		if err != nil {
			return nil, fmt.Errorf("process dockerfile instructions: %w", err)
		}
		if _, ok := instr.(*instructions.Stage); ok {
			stages++
		}
		stage := max(stages-1, 0)
		for _, c := range child.PrevComment {
			cmds = append(cmds, dockerCommand{Cmd: "comment", Stage: stage, Value: []string{c}})
		}
		cmd := dockerCommand{Cmd: strings.ToLower(child.Value), Flags: child.Flags, Stage: stage}
		if child.Next != nil && len(child.Next.Children) > 0 {
			cmd.SubCmd = child.Next.Children[0].Value
			child = child.Next.Children[0]
		}
		cmd.JSON = child.Attributes["json"]
		for n := child.Next; n != nil; n = n.Next {
			cmd.Value = append(cmd.Value, n.Value)
		}
		cmds = append(cmds, cmd)
	}
	return [][]dockerCommand{cmds}, nil
}

// nginxDirective is one directive of an nginx configuration as conftest
// gives it (parser/nginx/nginx.go).
type nginxDirective struct {
	Name       string           `json:"name"`
	Parameters []string         `json:"parameters,omitempty"`
	Block      *nginxDirectives `json:"block,omitempty"`
}

type nginxDirectives struct {
	Directives []nginxDirective `json:"directives"`
}

// parseNginx: parser/nginx/nginx.go (comments skipped).
func parseNginx(src []byte, _ Options) (any, error) {
	cfg, err := nginxparser.NewStringParser(string(src), nginxparser.WithSkipComments()).Parse()
	if err != nil {
		return nil, fmt.Errorf("parse nginx: %w", err)
	}
	return nginxDirectives{Directives: nginxConvert(cfg.GetDirectives())}, nil
}

func nginxConvert(ds []nginxconfig.IDirective) []nginxDirective {
	out := make([]nginxDirective, 0, len(ds))
	for _, d := range ds {
		params := make([]string, 0, len(d.GetParameters()))
		for _, p := range d.GetParameters() {
			params = append(params, p.String())
		}
		nd := nginxDirective{Name: d.GetName(), Parameters: params}
		if b := d.GetBlock(); b != nil {
			nd.Block = &nginxDirectives{Directives: nginxConvert(b.GetDirectives())}
		}
		out = append(out, nd)
	}
	return out
}

// Bounds of the Groovy syntax tree (parser/groovy/groovy.go).
const (
	groovyMaxDepth = 256
	groovyMaxNodes = 100_000
)

// groovyNode is a node of a Jenkinsfile's concrete syntax tree as
// conftest gives it (parser/groovy/groovy.go Node).
type groovyNode struct {
	Kind     string       `json:"kind"`
	Text     string       `json:"text,omitempty"`
	Line     int          `json:"line"`
	Column   int          `json:"column"`
	Children []groovyNode `json:"children,omitempty"`
}

// parseGroovy: parser/groovy/groovy.go (Groovy 2.4, as Jenkins).
func parseGroovy(src []byte, _ Options) (any, error) {
	file := groovysource.New("", src)
	root, errs := groovyparser.New(file, groovylang.ParseOptions{Version: groovylang.Groovy2_4}).Parse()
	if len(errs) > 0 {
		return nil, fmt.Errorf("parse groovy at %s: %s", file.Position(errs[0].Offset), errs[0].Message)
	}
	tree := groovycst.NewTree(root)
	if err := groovyBounded(tree); err != nil {
		return nil, fmt.Errorf("parse groovy: %w", err)
	}
	return groovyConvert(tree, file), nil
}

// groovyBounded refuses a tree deeper than groovyMaxDepth or larger
// than groovyMaxNodes, as conftest's validateTree.
func groovyBounded(root *groovycst.Node) error {
	type entry struct {
		node  *groovycst.Node
		depth int
	}
	stack := []entry{{root, 1}}
	nodes := 1
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := cur.node.NumChildren()
		switch {
		case cur.depth > groovyMaxDepth || (n > 0 && cur.depth == groovyMaxDepth):
			return fmt.Errorf("syntax tree exceeds maximum depth of %d", groovyMaxDepth)
		case n > groovyMaxNodes-nodes:
			return fmt.Errorf("syntax tree exceeds maximum node count of %d", groovyMaxNodes)
		}
		nodes += n
		children := cur.node.Children()
		for i := len(children) - 1; i >= 0; i-- {
			stack = append(stack, entry{children[i], cur.depth + 1})
		}
	}
	return nil
}

func groovyConvert(node *groovycst.Node, file *groovysource.File) groovyNode {
	out := groovyNode{Kind: node.Kind().String()}
	if node.IsToken() {
		tok := node.Token()
		pos := file.Position(tok.Offset)
		out.Kind, out.Text, out.Line, out.Column = tok.Kind.String(), tok.Text, pos.Line, pos.Column
		return out
	}
	for _, child := range node.Children() {
		if child.IsToken() && (child.Token().Kind == groovytoken.EOF || child.Token().Text == "") {
			continue
		}
		out.Children = append(out.Children, groovyConvert(child, file))
	}
	if len(out.Children) > 0 {
		out.Line, out.Column = out.Children[0].Line, out.Children[0].Column
	} else {
		pos := file.Position(0)
		out.Line, out.Column = pos.Line, pos.Column
	}
	return out
}

// protoMessage finds textproto's "# proto-message: NAME" comment.
var protoMessage = regexp.MustCompile(`#\s+proto-message:\s+([a-zA-Z0-9_\.]+)`)

// textprotoType is the message type a textproto file names
// (parser/textproto/textproto.go extractMsgType).
func textprotoType(src []byte) (string, error) {
	s := bufio.NewScanner(bytes.NewReader(src))
	for s.Scan() {
		if m := protoMessage.FindStringSubmatch(s.Text()); m != nil {
			return m[1], nil
		}
	}
	return "", fmt.Errorf("file does not contain necessary proto-message comment")
}
