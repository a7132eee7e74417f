package parsers

// Jsonnet and textproto: ports of conftest v0.71.1's
// parser/jsonnet/jsonnet.go and parser/textproto/textproto.go
// (Apache-2.0), with the files they read kept inside the input's
// directory.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	protoparser "github.com/bufbuild/protocompile/parser"
	"github.com/bufbuild/protocompile/reporter"
	"github.com/google/go-jsonnet"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/drydock-dev/drydock/manifest"
)

// parseJsonnet: parser/jsonnet/jsonnet.go: the snippet evaluated, its
// imports read from the directory of Options.Path (none without one).
// Unlike conftest, which looks in the working directory first, an
// import is read only below that directory, a regular file
// (dirImporter).
func parseJsonnet(src []byte, o Options) (any, error) {
	vm := jsonnet.MakeVM()
	vm.ErrorFormatter.SetMaxStackTraceSize(20)
	imp := &dirImporter{}
	if o.Path != "" && o.Path != "-" {
		imp.dir = filepath.Dir(o.Path)
	}
	vm.Importer(imp)
	out, err := vm.EvaluateAnonymousSnippet("", string(src))
	if err != nil {
		return nil, fmt.Errorf("evaluate anonymous snippet: %w", err)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return nil, fmt.Errorf("unmarshal json failed: %w", err)
	}
	return v, nil
}

// dirImporter reads Jsonnet imports below dir only: a relative path
// from the importing file, through os.Root (no link out, no "..").
type dirImporter struct {
	dir string
}

// errNoImports is the refusal of an import with no directory to read.
var errNoImports = errors.New("imports are read only from a file's directory; this snippet has none")

// Import implements jsonnet.Importer.
func (d *dirImporter) Import(from, p string) (jsonnet.Contents, string, error) {
	if d.dir == "" {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: %w", p, errNoImports)
	}
	rel := path.Join(path.Dir(filepath.ToSlash(from)), filepath.ToSlash(p))
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: %w", p, err)
	}
	defer root.Close()
	b, err := manifest.ReadIn(root, rel)
	if err != nil {
		return jsonnet.Contents{}, "", fmt.Errorf("import %q: %w", p, err)
	}
	return jsonnet.MakeContentsRaw(b), rel, nil
}

// parseTextProto: parser/textproto/textproto.go: the message type the
// "# proto-message:" comment names, from Options.ProtoFiles (conftest
// --proto-file-dirs) or the types built in, read as text and given as
// protojson with the proto field names.
func parseTextProto(src []byte, o Options) (any, error) {
	name, err := textprotoType(src)
	if err != nil {
		return nil, fmt.Errorf("extract proto message type: %w", err)
	}
	types, err := protoTypes(o.ProtoFiles)
	if err != nil {
		return nil, err
	}
	mt, err := types.FindMessageByName(protoreflect.FullName(name))
	if err != nil {
		return nil, fmt.Errorf("look up message type %q: %w", name, err)
	}
	msg := mt.New().Interface()
	if err := (prototext.UnmarshalOptions{Resolver: types}).Unmarshal(src, msg); err != nil {
		return nil, fmt.Errorf("unmarshal textproto: %w", err)
	}
	b, err := protojson.MarshalOptions{UseProtoNames: true, Resolver: types}.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("marshal JSON: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("unmarshal JSON: %w", err)
	}
	return v, nil
}

// protoResolver finds message types and extensions: those of the
// loaded files first, then the ones built in.
type protoResolver struct {
	local *protoregistry.Types
}

func (r protoResolver) FindMessageByName(n protoreflect.FullName) (protoreflect.MessageType, error) {
	if t, err := r.local.FindMessageByName(n); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindMessageByName(n)
}

func (r protoResolver) FindMessageByURL(u string) (protoreflect.MessageType, error) {
	if t, err := r.local.FindMessageByURL(u); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindMessageByURL(u)
}

func (r protoResolver) FindExtensionByName(n protoreflect.FullName) (protoreflect.ExtensionType, error) {
	if t, err := r.local.FindExtensionByName(n); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindExtensionByName(n)
}

func (r protoResolver) FindExtensionByNumber(m protoreflect.FullName, f protoreflect.FieldNumber) (protoreflect.ExtensionType, error) {
	if t, err := r.local.FindExtensionByNumber(m, f); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindExtensionByNumber(m, f)
}

// protoTypes compiles the .proto files, in order (a file's imports
// before it), into a registry of their own: nothing global changes.
func protoTypes(paths []string) (protoResolver, error) {
	r := protoResolver{local: new(protoregistry.Types)}
	files := new(protoregistry.Files)
	for _, p := range paths {
		if err := loadProto(p, files, r.local); err != nil {
			return r, fmt.Errorf("load proto file %s: %w", p, err)
		}
	}
	return r, nil
}

func loadProto(p string, files *protoregistry.Files, types *protoregistry.Types) error {
	if _, err := files.FindFileByPath(p); err == nil {
		return nil
	}
	src, err := manifest.ReadFile(p)
	if err != nil {
		return err
	}
	h := reporter.NewHandler(nil)
	node, err := protoparser.Parse(p, bytes.NewReader(src), h)
	if err != nil {
		return fmt.Errorf("parse proto: %w", err)
	}
	res, err := protoparser.ResultFromAST(node, true, h)
	if err != nil {
		return fmt.Errorf("convert from AST: %w", err)
	}
	fd, err := protodesc.NewFile(res.FileDescriptorProto(), files)
	if err != nil {
		return fmt.Errorf("convert to FileDescriptor: %w", err)
	}
	if err := files.RegisterFile(fd); err != nil {
		return fmt.Errorf("register file: %w", err)
	}
	for i := range fd.Messages().Len() {
		if err := types.RegisterMessage(dynamicpb.NewMessageType(fd.Messages().Get(i))); err != nil {
			return fmt.Errorf("register message: %w", err)
		}
	}
	for i := range fd.Extensions().Len() {
		if err := types.RegisterExtension(dynamicpb.NewExtensionType(fd.Extensions().Get(i))); err != nil {
			return fmt.Errorf("register extension: %w", err)
		}
	}
	return nil
}
