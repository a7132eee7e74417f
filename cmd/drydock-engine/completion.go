package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// shellNames are the shells drydock writes completion scripts for.
var shellNames = []string{"bash", "fish", "powershell", "zsh"}

// shellScript is the writer of a shell's completion script.
func shellScript(shell string) (func(io.Writer, []*command), bool) {
	switch shell {
	case "bash":
		return bashCompletion, true
	case "zsh":
		return zshCompletion, true
	case "fish":
		return fishCompletion, true
	case "powershell":
		return powershellCompletion, true
	}
	return nil, false
}

func runCompletion(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("completion", "completion bash|zsh|fish|powershell",
		"Prints a script completing drydock's commands and their flags in the shell. For example:\n"+
			"  bash:       source <(drydock completion bash)   (or write it to /etc/bash_completion.d/drydock)\n"+
			"  zsh:        drydock completion zsh > \"${fpath[1]}/_drydock\"\n"+
			"  fish:       drydock completion fish > ~/.config/fish/completions/drydock.fish\n"+
			"  powershell: drydock completion powershell | Out-String | Invoke-Expression")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	if cmd.fs.NArg() != 1 {
		return cmd.fail(stderr, errors.New("give one shell: bash, zsh, fish or powershell"))
	}
	write, ok := shellScript(cmd.fs.Arg(0))
	if !ok {
		return cmd.fail(stderr, fmt.Errorf("unknown shell %q: want bash, zsh, fish or powershell", cmd.fs.Arg(0)))
	}
	write(stdout, describeCommands())
	return exitOK
}

// topCommands are the first words drydock takes: every command of its usage.
func topCommands() []string { return slices.Clone(commands) }

// flagWords are a command's flags as typed: --name and -s.
func flagWords(c *command, value bool) []string {
	var w []string
	for _, f := range c.flags() {
		if f.value != value {
			continue
		}
		w = append(w, "--"+f.name)
		if f.short != "" {
			w = append(w, "-"+f.short)
		}
	}
	return w
}

func bashCompletion(w io.Writer, cmds []*command) {
	fmt.Fprintf(w, `# bash completion for drydock (drydock completion bash)
_drydock() {
    local cur prev cmd i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
        -*) ;;
        *)
            if [[ -z $cmd ]]; then
                cmd="${COMP_WORDS[i]}"
            elif [[ $cmd == addon || $cmd == report ]]; then
                cmd="$cmd ${COMP_WORDS[i]}"
                break
            else
                break
            fi
            ;;
        esac
    done
    local flags="" valueflags=""
    case "$cmd" in
    "")
        COMPREPLY=($(compgen -W "%s" -- "$cur"))
        return
        ;;
    addon)
        COMPREPLY=($(compgen -W "render" -- "$cur"))
        return
        ;;
    report)
        COMPREPLY=($(compgen -W "merge" -- "$cur"))
        return
        ;;
    help)
        COMPREPLY=($(compgen -W "%[1]s" -- "$cur"))
        return
        ;;
`, strings.Join(topCommands(), " "))
	for _, c := range cmds {
		fmt.Fprintf(w, "    %q)\n        flags=%q\n        valueflags=%q\n", c.name,
			strings.Join(flagWords(c, false), " "), strings.Join(flagWords(c, true), " "))
		if c.name == "completion" {
			fmt.Fprintf(w, "        if [[ $cur != -* ]]; then\n            COMPREPLY=($(compgen -W %q -- \"$cur\"))\n            return\n        fi\n",
				strings.Join(shellNames, " "))
		}
		fmt.Fprintf(w, "        ;;\n")
	}
	fmt.Fprint(w, `    esac
    if [[ " $valueflags " == *" $prev "* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags $valueflags" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
}
complete -F _drydock drydock
`)
}

// zshQuote is s in zsh's single quotes.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// zshDescription is s fit for an _arguments description: one line, its
// brackets and colons escaped.
func zshDescription(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	r := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`)
	return r.Replace(s)
}

func zshCompletion(w io.Writer, cmds []*command) {
	fmt.Fprint(w, `#compdef drydock
# zsh completion for drydock (drydock completion zsh)
_drydock() {
    local -a cmds
    cmds=(
`)
	for _, c := range topCommands() {
		desc := summaries[c]
		fmt.Fprintf(w, "        %s\n", zshQuote(c+":"+zshDescription(desc)))
	}
	fmt.Fprint(w, `    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'drydock command' cmds
        return
    fi
    local cmd=${words[2]}
    if [[ $cmd == addon ]]; then
        if (( CURRENT == 3 )); then
            compadd render
            return
        fi
        cmd="addon render"
    fi
    if [[ $cmd == report ]]; then
        if (( CURRENT == 3 )); then
            compadd merge
            return
        fi
        cmd="report merge"
    fi
    case $cmd in
    help)
        _describe -t commands 'drydock command' cmds
        ;;
`)
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s)\n        _arguments -s \\\n", zshQuote(c.name))
		for _, f := range c.flags() {
			desc := "[" + zshDescription(f.usage) + "]"
			arg := ""
			if f.value {
				arg = ":" + f.name + ":_files"
			}
			long, short := "*--"+f.name, "*-"+f.short
			if f.value {
				long += "="
				short += "+"
			}
			fmt.Fprintf(w, "            %s \\\n", zshQuote(long+desc+arg))
			if f.short != "" {
				fmt.Fprintf(w, "            %s \\\n", zshQuote(short+desc+arg))
			}
		}
		if c.name == "completion" {
			fmt.Fprintf(w, "            %s\n", zshQuote("1:shell:("+strings.Join(shellNames, " ")+")"))
		} else {
			fmt.Fprintf(w, "            %s\n", zshQuote("*:file:_files"))
		}
		fmt.Fprint(w, "        ;;\n")
	}
	fmt.Fprint(w, `    esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _drydock "$@"
else
    compdef _drydock drydock
fi
`)
}

// fishQuote is s in fish's single quotes.
func fishQuote(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func fishCompletion(w io.Writer, cmds []*command) {
	fmt.Fprint(w, `# fish completion for drydock (drydock completion fish)
function __fish_drydock_command
    set -l words (commandline -opc)
    set -e words[1]
    for w in $words
        switch $w
            case '-*'
            case '*'
                echo $w
                return
        end
    end
end
function __fish_drydock_is
    set -l c (__fish_drydock_command)
    test "$c" = "$argv[1]"
end
complete -c drydock -f
`)
	for _, c := range topCommands() {
		desc := summaries[c]
		fmt.Fprintf(w, "complete -c drydock -n %s -a %s -d %s\n", fishQuote("__fish_drydock_is ''"), c, fishQuote(desc))
	}
	fmt.Fprintf(w, "complete -c drydock -n %s -a render -d %s\n", fishQuote("__fish_drydock_is addon"), fishQuote(summaries["addon"]))
	fmt.Fprintf(w, "complete -c drydock -n %s -a merge -d %s\n", fishQuote("__fish_drydock_is report"), fishQuote(summaries["report"]))
	for _, s := range shellNames {
		fmt.Fprintf(w, "complete -c drydock -n %s -a %s\n", fishQuote("__fish_drydock_is completion"), s)
	}
	for _, c := range cmds {
		top, _, _ := strings.Cut(c.name, " ")
		cond := fishQuote("__fish_drydock_is " + top)
		if c.name != "completion" && c.name != "init" {
			fmt.Fprintf(w, "complete -c drydock -n %s -F\n", cond)
		}
		for _, f := range c.flags() {
			fmt.Fprintf(w, "complete -c drydock -n %s -l %s", cond, f.name)
			if f.short != "" {
				fmt.Fprintf(w, " -s %s", f.short)
			}
			if f.value {
				fmt.Fprint(w, " -r -F")
			}
			fmt.Fprintf(w, " -d %s\n", fishQuote(f.usage))
		}
	}
}

// psQuote is s in PowerShell's single quotes.
func psQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func powershellCompletion(w io.Writer, cmds []*command) {
	fmt.Fprint(w, `# PowerShell completion for drydock (drydock completion powershell)
Register-ArgumentCompleter -Native -CommandName drydock -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $commands = @(`)
	var qs []string
	for _, c := range topCommands() {
		qs = append(qs, psQuote(c))
	}
	fmt.Fprintf(w, "%s)\n    $flags = @{\n", strings.Join(qs, ", "))
	for _, c := range cmds {
		var fs []string
		for _, f := range append(flagWords(c, false), flagWords(c, true)...) {
			fs = append(fs, psQuote(f))
		}
		fmt.Fprintf(w, "        %s = @(%s)\n", psQuote(c.name), strings.Join(fs, ", "))
	}
	var ss []string
	for _, s := range shellNames {
		ss = append(ss, psQuote(s))
	}
	fmt.Fprintf(w, `    }
    $shells = @(%s)
    $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
    if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }
    $cmd = ''
    foreach ($w in $words) {
        if ($w.StartsWith('-')) { continue }
        if ($cmd -eq '') { $cmd = $w } elseif ($cmd -eq 'addon' -or $cmd -eq 'report') { $cmd = "$cmd $w"; break } else { break }
    }
    $candidates = @()
    if ($cmd -eq '' -or $cmd -eq 'help') { $candidates = $commands }
    elseif ($cmd -eq 'addon') { $candidates = @('render') }
    elseif ($cmd -eq 'report') { $candidates = @('merge') }
    elseif ($wordToComplete.StartsWith('-')) { $candidates = $flags[$cmd] }
    elseif ($cmd -eq 'completion') { $candidates = $shells }
    $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
}
`, strings.Join(ss, ", "))
}
