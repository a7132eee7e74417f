package main

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
)

// TestLibraryLog: what Helm logs reaches the user as drydock's warning
// lines, debug chatter does not.
func TestLibraryLog(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(libraryLog{w: &buf})
	l.Warn("missing required value", "message", "image.tag is required")
	l.With("chart", "podinfo").Info("skipping unknown hooks", "hookTypes", "[pre-foo]")
	l.Debug("not shown")
	want := "warning: missing required value message=image.tag is required\nwarning: skipping unknown hooks chart=podinfo hookTypes=[pre-foo]\n"
	if got := buf.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if (libraryLog{}).Enabled(context.Background(), slog.LevelDebug) {
		t.Error("debug enabled")
	}
}
