package debate

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportsStayBelowThePipeline keeps step 2 usable on its own: the
// package may build on diff, provider (and its reply reader) and the
// internal helpers, never on the pipeline, the other steps or an adapter.
func TestImportsStayBelowThePipeline(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/crucible-go/crucible/"
	allowed := []string{module + "diff", module + "provider", module + "provider/llmjson", module + "internal/"}
	for _, imp := range pkg.Imports {
		if !strings.HasPrefix(imp, module) {
			continue
		}
		ok := false
		for _, a := range allowed {
			if imp == a || strings.HasSuffix(a, "/") && strings.HasPrefix(imp, a) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("package debate imports %s; it may import only diff, provider, provider/llmjson and internal packages", imp)
		}
	}
}
