package helm

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"text/template"
)

// Letters of sprig's random-string functions.
const (
	alpha   = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	numeric = "0123456789"
)

// randFuncs replace sprig's random functions (randAlphaNum, randAlpha,
// randNumeric, randAscii, randBytes, randInt, uuidv4) with ones drawing
// from a generator seeded by the chart, the release and the namespace:
// the same render gives the same output, as drydock's output must,
// where `helm template` gives new random names each run. The values
// are of the same form (length, alphabet) as sprig's.
func randFuncs(seed string) template.FuncMap {
	sum := sha256.Sum256([]byte(seed))
	r := rand.New(rand.NewChaCha8(sum))
	pick := func(n int, set string) string {
		b := make([]byte, max(n, 0))
		for i := range b {
			b[i] = set[r.IntN(len(set))]
		}
		return string(b)
	}
	ascii := make([]byte, 0, 95)
	for c := byte(32); c <= 126; c++ {
		ascii = append(ascii, c)
	}
	return template.FuncMap{
		"randAlphaNum": func(n int) string { return pick(n, alpha+numeric) },
		"randAlpha":    func(n int) string { return pick(n, alpha) },
		"randNumeric":  func(n int) string { return pick(n, numeric) },
		"randAscii":    func(n int) string { return pick(n, string(ascii)) },
		"randBytes": func(n int) (string, error) {
			b := make([]byte, max(n, 0))
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return base64.StdEncoding.EncodeToString(b), nil
		},
		"randInt": func(lo, hi int) int { return r.IntN(hi-lo) + lo },
		"uuidv4": func() string {
			var u [16]byte
			for i := range u {
				u[i] = byte(r.Uint32())
			}
			u[6] = u[6]&0x0f | 0x40
			u[8] = u[8]&0x3f | 0x80
			return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
		},
	}
}
