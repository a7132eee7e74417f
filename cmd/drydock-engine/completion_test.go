package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDescribeCommands: every command of drydock's usage with flags is in
// the registry, and describing it runs nothing (no output).
func TestDescribeCommands(t *testing.T) {
	var names []string
	for _, c := range describeCommands() {
		names = append(names, c.name)
		if len(c.flags()) == 0 {
			t.Errorf("%s: no flags, not even --help", c.name)
		}
	}
	for _, c := range commands {
		if c == "version" || c == "help" {
			continue
		}
		if !slices.ContainsFunc(names, func(n string) bool { return n == c || strings.HasPrefix(n, c+" ") }) {
			t.Errorf("command %s is not in subcommands()", c)
		}
		if summaries[c] == "" {
			t.Errorf("command %s has no summary", c)
		}
	}
}

// TestCompletionScripts: each shell's script names every command and every
// flag of each; the bash script is valid bash (and the zsh one valid zsh,
// fish valid fish, where the shell is installed), and completes.
func TestCompletionScripts(t *testing.T) {
	cmds := describeCommands()
	dir := t.TempDir()
	for _, shell := range shellNames {
		var out, errs bytes.Buffer
		if code := run([]string{"completion", shell}, nil, &out, &errs); code != exitOK {
			t.Fatalf("completion %s: exit %d: %s", shell, code, errs.String())
		}
		script := out.String()
		for _, c := range commands {
			if !strings.Contains(script, c) {
				t.Errorf("%s: no command %s", shell, c)
			}
		}
		for _, c := range cmds {
			for _, f := range c.flags() {
				word := "-" + f.name
				if shell == "fish" {
					word = " -l " + f.name
				}
				if !strings.Contains(script, word) {
					t.Errorf("%s: %s: no flag --%s", shell, c.name, f.name)
				}
			}
		}
		file := filepath.Join(dir, "drydock."+shell)
		if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		check := map[string][]string{"bash": {"bash", "-n"}, "zsh": {"zsh", "-n"}, "fish": {"fish", "--no-execute"}}[shell]
		if check == nil {
			continue
		}
		if _, err := exec.LookPath(check[0]); err != nil {
			t.Logf("%s not installed: %s script not checked", check[0], shell)
			continue
		}
		if b, err := exec.Command(check[0], append(check[1:], file)...).CombinedOutput(); err != nil {
			t.Errorf("%s %s: %v\n%s", strings.Join(check, " "), shell, err, b)
		}
	}
	if _, err := exec.LookPath("bash"); err != nil {
		return
	}
	// What bash completes at a few points of a command line.
	probe := `source "$1"
t() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _drydock; printf "%s\n" "${COMPREPLY[*]}"; }
t drydock re
t drydock render --val
t drydock addon ""
t drydock addon render --set-s
t drydock report ""
t drydock report merge --output-f
t drydock diff --base-d
t drydock completion ""
t drydock verify -n
`
	b, err := exec.Command("bash", "-c", probe, "probe", filepath.Join(dir, "drydock.bash")).CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, b)
	}
	want := "render report\n--validate\nrender\n--set-string\nmerge\n--output-file\n--base-dir\nbash fish powershell zsh\n-n\n"
	if string(b) != want {
		t.Errorf("bash completes\n%s\nwant\n%s", b, want)
	}
}
