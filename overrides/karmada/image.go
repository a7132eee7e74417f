package karmada

import (
	_ "crypto/sha256" // digest algorithms reference.Parse accepts, as Karmada registers them
	_ "crypto/sha512"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/distribution/reference"
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
// clusters, and reference.Parse is a large regular expression.
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
	ref, err := reference.Parse(s)
	if err != nil {
		return image{}, err
	}
	var img image
	if named, ok := ref.(reference.Named); ok {
		img.host, img.repository = splitHostname(named.Name())
	}
	if tagged, ok := ref.(reference.Tagged); ok {
		img.tag = tagged.Tag()
	} else if digested, ok := ref.(reference.Digested); ok {
		img.digest = digested.Digest().String()
	}
	return img, nil
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
