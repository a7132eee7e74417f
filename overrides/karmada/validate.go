package karmada

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// totalAnnotationSizeLimit is apimachinery's TotalAnnotationSizeLimitB.
const totalAnnotationSizeLimit = 256 * (1 << 10)

// validation collects the webhook's field errors in the order Karmada's
// ValidateOverrideSpec appends them.
type validation struct {
	obj     *manifest.Object
	subject manifest.Subject
	// pos is where the first error points.
	pos  fieldpath.Path
	errs []fieldError
}

// fieldError is one field error: the field's path and the message.
type fieldError struct {
	path fieldpath.Path
	msg  string
}

func (e fieldError) String() string { return e.path.String() + ": " + e.msg }

// add records the field error msg about the field at path, positioned at
// pos (a path under path, or path itself).
func (v *validation) add(pos, path fieldpath.Path, msg string) {
	if len(v.errs) == 0 {
		v.pos = pos
	}
	v.errs = append(v.errs, fieldError{path: path, msg: msg})
}

// invalid records field.Invalid(path, value, msg), positioned at pos.
func (v *validation) invalid(pos, path fieldpath.Path, value any, msg string) {
	v.add(pos, path, fmt.Sprintf("Invalid value: %s: %s", formatValue(value), msg))
}

// invalidEach records one field.Invalid per problem err lists (the
// manifest validators join Kubernetes' messages with "; ").
func (v *validation) invalidEach(pos, path fieldpath.Path, value any, err error) {
	if err == nil {
		return
	}
	for _, msg := range strings.Split(err.Error(), "; ") {
		v.invalid(pos, path, value, msg)
	}
}

// err is Karmada's denial (field.ErrorList.ToAggregate): the one error, or
// all of them between brackets, comma-separated, repeats dropped;
// positioned at the first. nil when there is none.
func (v *validation) err() error {
	var errs []fieldError
	var texts []string
	for _, e := range v.errs {
		if !slices.Contains(texts, e.String()) {
			errs, texts = append(errs, e), append(texts, e.String())
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return invalidErrorAt(v.obj, v.subject, v.pos, errs[0].path, errs[0].msg)
	}
	return located(v.obj.FieldPos(v.pos), v.subject, errs[0].path, "["+strings.Join(texts, ", ")+"]", ErrInvalid)
}

const maxValueLen = 200

// formatValue prints a bad value: strings quoted, objects as JSON.
func formatValue(value any) string {
	switch x := value.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	}
	data, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	if len(data) > maxValueLen {
		return string(data[:maxValueLen]) + "..."
	}
	return string(data)
}

// affinity reports Karmada's field selector rule for the affinity at path.
func (v *validation) affinity(a *karmada.Affinity, path fieldpath.Path) {
	err := a.Validate()
	if err == nil {
		return
	}
	var fe *manifest.FieldError
	if !errors.As(err, &fe) {
		v.add(path, path, err.Error())
		return
	}
	selPath := path.Child("fieldSelector")
	v.invalid(path.Join(fe.Path), selPath, v.raw(selPath), fe.Msg)
}

// raw returns the authored value at path.
func (v *validation) raw(path fieldpath.Path) any {
	val, _ := fieldpath.Get(v.obj.Data, path)
	return val
}

// validate runs the webhook checks on a policy whose schema is valid.
func (p *parser) validate(pol *Policy, s *parsedSpec) error {
	v := &validation{obj: p.obj, subject: p.subject}
	if s.target != nil {
		v.affinity(s.target, fieldpath.New("spec", "targetCluster"))
		if s.rulesPresent {
			v.invalid(fieldpath.New("spec", "targetCluster"), fieldpath.New("spec", "targetCluster"), v.raw(fieldpath.New("spec", "targetCluster")), "overrideRules and targetCluster can't co-exist")
		}
	}
	if !emptyOverriders(s.overriders) && s.rulesPresent {
		v.invalid(fieldpath.New("spec", "overriders"), fieldpath.New("spec", "overriders"), v.raw(fieldpath.New("spec", "overriders")), "overrideRules and overriders can't co-exist")
	}
	for i, r := range s.rules {
		v.rule(r, fieldpath.New("spec", "overrideRules", i))
	}
	if pol.Kind == KindOverridePolicy {
		for i, rs := range s.selectors {
			if rs.Namespace != "" && rs.Namespace != pol.Namespace {
				path := fieldpath.New("spec", "resourceSelectors", i, "namespace")
				v.invalid(path, path, rs.Namespace, "namespace of resource selector must be the same as the namespace of the policy")
			}
		}
	}
	return v.err()
}

// emptyOverriders is Karmada's emptyOverrides: it does not look at
// fieldOverrider.
func emptyOverriders(o Overriders) bool {
	return len(o.Plaintext) == 0 && len(o.Image) == 0 && len(o.Command) == 0 &&
		len(o.Args) == 0 && len(o.Labels) == 0 && len(o.Annotations) == 0
}

// rule is ValidateOverrideRules for one rule.
func (v *validation) rule(r Rule, path fieldpath.Path) {
	opath := path.Child("overriders")
	for i, a := range r.Overriders.Annotations {
		v.annotations(a.Value, opath.Child("annotationsOverrider").At(i).Child("value"))
	}
	for i, l := range r.Overriders.Labels {
		v.labels(l.Value, opath.Child("labelsOverrider").At(i).Child("value"))
	}
	for i, im := range r.Overriders.Image {
		if im.HasPredicate && !isPointer(im.PredicatePath) {
			path := opath.Child("imageOverrider").At(i).Child("predicate").Child("path")
			v.invalid(path, path, im.PredicatePath, errPointer)
		}
	}
	for i, f := range r.Overriders.Field {
		v.field(f, opath.Child("fieldOverrider").At(i))
	}
	v.affinity(r.TargetCluster, path.Child("targetCluster"))
}

func (v *validation) annotations(values map[string]string, path fieldpath.Path) {
	size := 0
	for _, k := range manifest.SortedKeys(values) {
		size += len(k) + len(values[k])
		v.invalidEach(path.Child(k), path, k, manifest.ValidLabelKey(strings.ToLower(k)))
	}
	if size > totalAnnotationSizeLimit {
		v.add(path, path, fmt.Sprintf("Too long: must have at most %d bytes", totalAnnotationSizeLimit))
	}
}

func (v *validation) labels(values map[string]string, path fieldpath.Path) {
	for _, k := range manifest.SortedKeys(values) {
		v.invalidEach(path.Child(k), path, k, manifest.ValidLabelKey(k))
		v.invalidEach(path.Child(k), path, values[k], manifest.ValidLabelValue(values[k]))
	}
}

func (v *validation) field(f FieldOverrider, path fieldpath.Path) {
	if len(f.YAML) > 0 && len(f.JSON) > 0 {
		v.invalid(path, path, v.raw(path), "FieldOverrider has both YAML and JSON set. Only one is allowed")
	}
	if len(f.YAML) == 0 && len(f.JSON) == 0 {
		v.invalid(path, path, v.raw(path), "FieldOverrider must have either JSON or YAML set")
	}
	if !isPointer(f.FieldPath) {
		v.invalid(path.Child("fieldPath"), path.Child("fieldPath"), f.FieldPath, errPointer)
	}
	v.operations(f.JSON, path.Child("json"))
	v.operations(f.YAML, path.Child("yaml"))
}

func (v *validation) operations(ops []Operation, path fieldpath.Path) {
	for i, op := range ops {
		opath := path.At(i)
		if !isPointer(op.Path) {
			v.invalid(opath.Child("subPath"), opath.Child("subPath"), op.Path, errPointer)
		}
		switch op.Operator {
		case OpAdd, OpReplace:
			if !op.HasValue {
				v.invalid(opath, opath.Child("value"), nil, "value is required for add or replace operation")
			}
		case OpRemove:
			if op.HasValue {
				v.invalid(opath.Child("value"), opath.Child("value"), op.Value, "value is not allowed for remove operation")
			}
		}
	}
}

// errPointer is go-openapi/jsonpointer's message for a malformed pointer.
const errPointer = `JSON pointer must be empty or start with a "/"`

// isPointer is go-openapi/jsonpointer.New's check.
func isPointer(s string) bool { return s == "" || strings.HasPrefix(s, "/") }
