package karmada

import (
	_ "crypto/sha256" // digest algorithms godigest.Parse accepts, as Karmada registers them
	_ "crypto/sha512"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	godigest "github.com/opencontainers/go-digest"
)

// image is an image reference split the way Karmada's imageparser does:
// [host/]repository[:tag|@digest], without docker.io normalisation.
type image struct {
	host, repository, tag, digest string
}

var (
	anchoredTag    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w][\w.-]{0,127}$`) })
	anchoredDigest = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}$`)
	})
)

// imageCache memoises parseImage: references repeat across objects and
// clusters, and parseReference is a large regular expression.
var imageCache struct {
	sync.Mutex
	m map[string]imageResult
}

type imageResult struct {
	img image
	err error
}

const imageCacheMax = 4096

// parseImage parses an image reference as reference.Parse does. A reference
// with both a tag and a digest keeps only the tag.
func parseImage(s string) (image, error) {
	imageCache.Lock()
	r, ok := imageCache.m[s]
	imageCache.Unlock()
	if ok {
		return r.img, r.err
	}
	r.img, r.err = parseImageUncached(s)
	imageCache.Lock()
	if imageCache.m == nil || len(imageCache.m) >= imageCacheMax {
		imageCache.m = make(map[string]imageResult)
	}
	imageCache.m[s] = r
	imageCache.Unlock()
	return r.img, r.err
}

func parseImageUncached(s string) (image, error) {
	name, tag, dgst, err := parseReference(s)
	if err != nil {
		return image{}, err
	}
	img := image{tag: tag}
	img.host, img.repository = splitHostname(name)
	if tag == "" {
		img.digest = dgst
	}
	return img, nil
}

// The errors of github.com/distribution/reference's Parse, which Karmada
// quotes in its messages.
var (
	errReferenceInvalidFormat = errors.New("invalid reference format")
	errNameContainsUppercase  = errors.New("repository name must be lowercase")
	errNameTooLong            = errors.New("repository name must not be more than 255 characters")
)

// The grammar of github.com/distribution/reference (v0.6.0, regexp.go),
// compiled on first use: that package compiles its expressions when the
// program starts, a cost every drydock command paid.
const (
	refAlphanumeric        = `[a-z0-9]+`
	refSeparator           = `(?:[._]|__|[-]+)`
	refDomainNameComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	refOptionalPort        = `(?::[0-9]+)?`
	refTag                 = `[\w][\w.-]{0,127}`
	refDigest              = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
	refIPv6Address         = `\[(?:[a-fA-F0-9:]+)\]`
	refDomainName          = refDomainNameComponent + `(?:\.` + refDomainNameComponent + `)*`
	refDomainAndPort       = `(?:` + refDomainName + `|` + refIPv6Address + `)` + refOptionalPort
	refPathComponent       = refAlphanumeric + `(?:` + refSeparator + refAlphanumeric + `)*`
	refRemoteName          = refPathComponent + `(?:/` + refPathComponent + `)*`
	refName                = `(?:` + refDomainAndPort + `/)?` + refRemoteName
)

var (
	referenceRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(` + refName + `)(?::(` + refTag + `))?(?:@(` + refDigest + `))?$`)
	})
	anchoredNameRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:(` + refDomainAndPort + `)/)?(` + refRemoteName + `)$`)
	})
)

// parseReference is github.com/distribution/reference's Parse: the name
// (domain/path), tag and digest of image reference s.
func parseReference(s string) (name, tag, dgst string, err error) {
	m := referenceRE().FindStringSubmatch(s)
	if m == nil {
		switch {
		case s == "":
			// Unreachable for Parse's callers here, as for Parse: kept
			// for its message.
			return "", "", "", errors.New("repository name must have at least one component")
		case referenceRE().FindStringSubmatch(strings.ToLower(s)) != nil:
			return "", "", "", errNameContainsUppercase
		}
		return "", "", "", errReferenceInvalidFormat
	}
	path := m[1]
	if n := anchoredNameRE().FindStringSubmatch(m[1]); len(n) == 3 {
		path = n[2]
	}
	if len(path) > 255 {
		return "", "", "", errNameTooLong
	}
	if m[3] != "" {
		d, err := godigest.Parse(m[3])
		if err != nil {
			return "", "", "", err
		}
		dgst = d.String()
	}
	return m[1], m[2], dgst, nil
}

// splitHostname treats the first path segment as the host only if it holds
// '.' or ':' or is "localhost".
func splitHostname(name string) (host, rest string) {
	i := strings.IndexByte(name, '/')
	if i < 0 || (!strings.ContainsAny(name[:i], ".:") && name[:i] != "localhost") {
		return "", name
	}
	return name[:i], name[i+1:]
}

func (img image) String() string {
	full := img.repository
	if img.host != "" {
		full = img.host + "/" + img.repository
	}
	switch {
	case img.tag != "":
		return full + ":" + img.tag
	case img.digest != "":
		return full + "@" + img.digest
	}
	return full
}

func (img *image) tagOrDigest() string {
	if img.tag != "" {
		return img.tag
	}
	return img.digest
}

// setTagOrDigest sets a valid tag or digest; anything else changes nothing.
func (img *image) setTagOrDigest(s string) {
	switch {
	case anchoredTag().MatchString(s):
		img.tag, img.digest = s, ""
	case anchoredDigest().MatchString(s):
		img.digest, img.tag = s, ""
	}
}

func (img *image) removeTagOrDigest() {
	if img.tag != "" {
		img.tag = ""
	} else {
		img.digest = ""
	}
}

// operate is an operator on a registry or repository string: add appends
// the value (Karmada adds no separator), replace sets it, remove empties
// it.
func operate(cur string, o *ImageOverrider) string {
	switch o.Operator {
	case OpAdd:
		return cur + o.Value
	case OpReplace:
		return o.Value
	case OpRemove:
		return ""
	}
	return cur
}

// overrideImage applies one ImageOverrider to an image string, as Karmada's
// overrideImage: the input must parse, the result is never validated.
func overrideImage(cur string, o *ImageOverrider) (string, error) {
	img, err := parseImage(cur)
	if err != nil {
		return "", fmt.Errorf("failed to parse image value(%s), error: %v", cur, err)
	}
	switch o.Component {
	case ComponentRegistry:
		img.host = operate(img.host, o)
	case ComponentRepository:
		img.repository = operate(img.repository, o)
	case ComponentTag:
		switch o.Operator {
		case OpAdd:
			img.setTagOrDigest(img.tagOrDigest() + o.Value)
		case OpReplace:
			img.setTagOrDigest(o.Value)
		case OpRemove:
			img.removeTagOrDigest()
		}
	default:
		return "", fmt.Errorf("unsupported image component(%s)", o.Component)
	}
	return img.String(), nil
}
