package schemas

import (
	"fmt"
	"os"
	"testing"
)

func testZZProbe(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("PROBE"))
	v := os.Getenv("PROBEV")
	if v == "" {
		v = "1.30"
	}
	api, _ := LoadKubeAPI(v)
	fs, served := api.Validate(decodeOne(t, string(src)))
	fmt.Println("served", served)
	for _, f := range fs {
		fmt.Println(f.Warning, f.String())
	}
}
