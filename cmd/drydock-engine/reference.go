package main

import (
	"fmt"
	"strings"
)

// referenceDocs are drydock's reference pages, generated from the flags
// the commands declare: docs/reference/<command>.md each (addon-render.md
// for addon render) and README.md, their index. `make docs` writes them;
// a test fails when the committed pages differ.
func referenceDocs() map[string]string {
	const header = "<!-- Generated from drydock's flags by `make docs`: do not edit. -->\n\n"
	docs := map[string]string{}
	var index strings.Builder
	index.WriteString(header + "# drydock command reference\n\n")
	index.WriteString("Every command's flags: name, type, default and help, as `drydock COMMAND --help` prints them.\n\n")
	index.WriteString("| Command | |\n|---|---|\n")
	for _, c := range describeCommands() {
		file := strings.ReplaceAll(c.name, " ", "-") + ".md"
		top, _, _ := strings.Cut(c.name, " ")
		fmt.Fprintf(&index, "| [drydock %s](%s) | %s |\n", c.name, file, mdCell(summaries[top]))
		var b strings.Builder
		b.WriteString(header)
		fmt.Fprintf(&b, "# drydock %s\n\n%s.\n\n", c.name, capitalize(summaries[top]))
		fmt.Fprintf(&b, "```\ndrydock %s\n```\n\n", c.synopsis)
		if c.about != "" {
			fmt.Fprintf(&b, "%s\n\n", mdText(c.about))
		}
		b.WriteString("## Flags\n\n| Flag | Type | Default | Description |\n|---|---|---|---|\n")
		for _, f := range c.flags() {
			name := "`--" + f.name + "`"
			if f.short != "" {
				name = "`-" + f.short + "`, " + name
			}
			def := f.def
			if def == "[]" || def == "" {
				def = ""
			} else {
				def = "`" + def + "`"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name, mdCell(f.typ), def, mdCell(f.usage))
		}
		docs[file] = b.String()
	}
	index.WriteString("\nAlso: `drydock help` prints every command in a line.\n")
	index.WriteString("\nThe configuration: [drydock.yaml](drydock.yaml.md), every key (generated from its schema).\n")
	docs["README.md"] = index.String()
	return docs
}

// mdText is text for a markdown paragraph: no HTML, its lines kept.
func mdText(s string) string {
	s = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
	return strings.ReplaceAll(s, "\n", "  \n")
}

// mdCell is text for a markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "|", `\|`, "\n", " ").Replace(s)
}

// capitalize is s with its first letter upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
