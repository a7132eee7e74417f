package charts

import (
	"crypto/sha256"
	"fmt"
)

// releaseName is helm-controller's GetReleaseName: spec.releaseName, else
// [targetNamespace-]name.
func releaseName(name, specReleaseName, targetNamespace string) string {
	switch {
	case specReleaseName != "":
		return specReleaseName
	case targetNamespace != "":
		return targetNamespace + "-" + name
	}
	return name
}

// shortenName is helm-controller's internal/release.ShortenName, applied
// to every release name it installs: a name longer than 53 characters
// becomes its first 40 characters, "-" and the first 12 hex digits of
// its SHA-256.
func shortenName(name string) string {
	const maxLength, shortHashLength = 53, 12
	if len(name) <= maxLength {
		return name
	}
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(name)))
	return name[:maxLength-(shortHashLength+1)] + "-" + sum[:shortHashLength]
}

// releaseNamespace is GetReleaseNamespace: spec.targetNamespace, else the
// HelmRelease's own.
func releaseNamespace(namespace, targetNamespace string) string {
	if targetNamespace != "" {
		return targetNamespace
	}
	return namespace
}
