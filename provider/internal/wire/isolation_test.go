package wire

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The model SDKs live behind the adapter modules (provider/openai,
// provider/anthropic, each with its own go.mod): a core package that
// imported one would force every user of the library to build OpenAI's and
// Anthropic's SDKs, and would put a network client where the design
// promises none. These tests hold that line with `go list`, the same
// checks the acceptance criteria name.

const module = "github.com/crucible-go/crucible"

// sdkPath matches what may not appear in the core module: the SDK modules,
// our adapters over them, and the pre-release YAML module the Anthropic
// SDK's dependencies pull in.
var sdkPath = regexp.MustCompile(`openai|anthropic|go\.yaml\.in/yaml/v4`)

func goCmd(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH: %v", err)
	}
	return p
}

func goList(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(goCmd(t), append([]string{"list"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.Fields(string(out))
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root := goList(t, ".", "-m", "-f", "{{.Dir}}")
	if len(root) != 1 {
		t.Fatalf("module root: %q", root)
	}
	return root[0]
}

// TestCoreModuleRequiresNoSDK is the module-level check: a host that uses
// only the core sees none of the SDKs in its module graph.
func TestCoreModuleRequiresNoSDK(t *testing.T) {
	root := moduleRoot(t)
	mods := goList(t, root, "-m", "all")
	if len(mods) < 3 {
		t.Fatalf("go list -m all listed only %q; the check would prove nothing", mods)
	}
	for _, m := range mods {
		if sdkPath.MatchString(m) {
			t.Errorf("go list -m all in the core module lists %s", m)
		}
	}
}

// TestCoreDoesNotImportSDKs checks every package of the module, so packages
// added later are covered without editing the test.
func TestCoreDoesNotImportSDKs(t *testing.T) {
	root := moduleRoot(t)
	lines := goList(t, root, "-f", "{{.ImportPath}}:{{range .Deps}}{{.}},{{end}}", "./...")
	if len(lines) < 3 {
		t.Fatalf("found only %d packages in %s; the check would prove nothing", len(lines), root)
	}
	for _, line := range lines {
		pkg, deps, _ := strings.Cut(line, ":")
		for _, dep := range strings.Split(deps, ",") {
			if sdkPath.MatchString(dep) {
				t.Errorf("core package %s depends on %s", pkg, dep)
				break // one is enough to name the culprit
			}
		}
	}
}

// TestCheckSeesAdapters is the control: the same pattern does find the SDK
// each adapter module requires, so a silent check above means a clean core.
// It reads the go.mod files rather than asking the go command, which would
// need the SDKs' modules downloaded.
func TestCheckSeesAdapters(t *testing.T) {
	root := moduleRoot(t)
	for _, adapter := range []string{"provider/openai", "provider/anthropic"} {
		b, err := os.ReadFile(filepath.Join(root, adapter, "go.mod"))
		if err != nil {
			t.Fatalf("%s is not a module of its own: %v", adapter, err)
		}
		found := false
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && (f[0] == "require" || len(f) == 2) && sdkPath.MatchString(f[len(f)-2]) && !strings.HasPrefix(f[len(f)-2], module) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s/go.mod requires no SDK the pattern sees; the isolation check is blind", adapter)
		}
	}
}
