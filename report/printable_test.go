package report

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text", "ConfigMap default/web: ok", "ConfigMap default/web: ok"},
		{"layout kept", "a\tb\nc\n", "a\tb\nc\n"},
		{"colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"window title (OSC, BEL)", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"carriage return overwrites", "ok\rFAIL", `ok\rFAIL`},
		{"NUL, backspace, DEL", "a\x00b\x08c\x7f", `a\x00b\x08c\x7f`},
		{"C1 CSI as UTF-8", "a\u009b31mb", `a\u009b31mb`},
		{"C1 NEL", "a\u0085b", `a\u0085b`},
		{"8-bit CSI byte (not UTF-8)", "a\x9b31mb", `a\x9b31mb`},
		{"invalid UTF-8", "\xff\xfe", `\xff\xfe`},
		{"truncated rune", "caf\xc3", `caf\xc3`},
		{"bidi override", "user\u202eexe.yaml", `user\u202eexe.yaml`},
		{"bidi isolate", "\u2066x\u2069", `\u2066x\u2069`},
		{"unicode text kept", "café ☃ 日本 🚢", "café ☃ 日本 🚢"},
		{"backslash kept", `C:\x1b is text`, `C:\x1b is text`},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Printable(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Printable(%q) (-want +got):\n%s", tt.in, diff)
			}
			if again := Printable(got); again != got {
				t.Errorf("Printable is not idempotent: %q then %q", got, again)
			}
		})
	}
}

func TestPrintableLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"component web", "component web"},
		{"a\nkind: Secret", `a\nkind: Secret`},
		{"a\r\n\x1b[2J\tb", `a\r\n\x1b[2J` + "\tb"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, PrintableLine(tt.in)); diff != "" {
			t.Errorf("PrintableLine(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestPrintableWriter(t *testing.T) {
	var out bytes.Buffer
	w := &PrintableWriter{W: &out}
	in := "drydock: app.yaml:3:9: name \x1b]0;x\x07 is invalid\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if diff := cmp.Diff("drydock: app.yaml:3:9: name \\x1b]0;x\\x07 is invalid\n", out.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestMarkdownText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "ConfigMap web", "ConfigMap web"},
		{"html", "<script>alert(1)</script>", "&#60;script&#62;alert(1)&#60;/script&#62;"},
		{"entity", "a &amp; b", "a &#38;amp; b"},
		{"code span", "a`b", "a&#96;b"},
		{"table pipe", "a|b", "a&#124;b"},
		{"emphasis and links", "*x* _y_ ~z~ [l](u)", "&#42;x&#42; &#95;y&#95; &#126;z&#126; &#91;l&#93;(u)"},
		{"underscore within a word kept", "deployment.apps_web.yaml", "deployment.apps_web.yaml"},
		{"mention and math", "@org/team $x$", "&#64;org/team &#36;x&#36;"},
		{"backslash", `\<b>`, "&#92;&#60;b&#62;"},
		{"line breaks", "a\r\nb\nc", "a<br>b<br>c"},
		{"controls shown as text", "\x1b[31mx", "&#92;x1b&#91;31mx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, MarkdownText(tt.in)); diff != "" {
				t.Errorf("MarkdownText(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestMarkdownCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"web", "<code>web</code>"},
		{"a`b|c</code><img src=x>", "<code>a&#96;b&#124;c&#60;/code&#62;&#60;img src=x&#62;</code>"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, MarkdownCode(tt.in)); diff != "" {
			t.Errorf("MarkdownCode(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestMarkdownFence(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"plain", "+a\n", "```diff\n+a\n```\n"},
		{"no final newline", "+a", "```diff\n+a\n```\n"},
		{"fence in the body", " ```\n+````\n", "`````diff\n ```\n+````\n`````\n"},
		{"controls", "+\x1b[2J\n", "```diff\n+\\x1b[2J\n```\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, MarkdownFence("diff", tt.body)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestArtifactURI(t *testing.T) {
	s := SARIF{Dir: "/repo"}
	tests := []struct{ file, want string }{
		{"apps/app.yaml", "apps/app.yaml"},
		{"/repo/apps/a b#c.yaml", "apps/a%20b%23c.yaml"},
		{"a?b%c.yaml", "a%3Fb%25c.yaml"},
		{"dir/ünï.yaml", "dir/%C3%BCn%C3%AF.yaml"},
		{"c:x.yaml", "c%3Ax.yaml"},
		{"it's (1)+@.yaml", "it's%20(1)+@.yaml"},
		{"/elsewhere/x y.yaml", "file:///elsewhere/x%20y.yaml"},
		{"a\x1b[31m\n.yaml", "a%1B%5B31m%0A.yaml"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, s.artifactURI(tt.file)); diff != "" {
			t.Errorf("artifactURI(%q) (-want +got):\n%s", tt.file, diff)
		}
	}
}
