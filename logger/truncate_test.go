package logger

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestTruncateJSONL(t *testing.T) {
	// Records as JSONL writes them; the expected cuts follow from their
	// steps (0, 100, 100, 200, 300).
	const records = `{"step":0,"scope":"test","values":{"r":1}}
{"step":100,"scope":"train","values":{"r":2}}
{"step":100,"scope":"update","values":{"loss":3}}
{"step":200,"scope":"train","values":{"r":4}}
{"step":300,"scope":"train","values":{"r":5}}
`
	lines := strings.SplitAfter(records, "\n")
	for _, tc := range []struct {
		name    string
		file    string
		step    int64
		keep    int // lines kept
		dropped int
		wantErr bool
	}{
		{"all kept", records, 300, 5, 0, false},
		{"cut after a step", records, 100, 3, 2, false},
		{"cut between steps", records, 150, 3, 2, false},
		{"only the first", records, 0, 1, 4, false},
		{"emptied", records, -1, 0, 5, false},
		{"partial last line", records + `{"step":400,"sco`, 300, 5, 1, false},
		{"partial line after the cut", records + `{"step":400,"sco`, 200, 4, 2, false},
		{"empty file", "", 5, 0, 0, false},
		{"a line that is no record", lines[0] + "garbage\n" + lines[1], 300, 0, 0, true},
		{"glued records", lines[0] + `{"step":50,"sc{"step":100,"scope":"train","values":{}}` + "\n", 300, 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			dropped, err := TruncateJSONL(path, tc.step)
			got, rerr := os.ReadFile(path)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if tc.wantErr {
				if err == nil {
					t.Fatal("no error")
				}
				if string(got) != tc.file {
					t.Errorf("the file changed after an error:\n%s", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Join(lines[:tc.keep], "")
			if string(got) != want || dropped != tc.dropped {
				t.Errorf("dropped %d, want %d; file:\n%s\nwant:\n%s", dropped, tc.dropped, got, want)
			}
		})
	}
	if n, err := TruncateJSONL(filepath.Join(t.TempDir(), "none.jsonl"), 0); n != 0 || err != nil {
		t.Errorf("missing file: %d, %v", n, err)
	}
}

func TestTruncateEvents(t *testing.T) {
	// Steps logged: 0 (test), 100, 100, 200, 300; each case's kept events
	// are those at steps ≤ the cut.
	steps := []int64{0, 100, 100, 200, 300}
	write := func(t *testing.T, extra []byte) string {
		tb := newTestTensorBoard(t, nil)
		for i, s := range steps {
			if err := tb.Log("train", s, map[string]float64{"i": float64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := tb.Close(); err != nil {
			t.Fatal(err)
		}
		if len(extra) > 0 {
			f, err := os.OpenFile(tb.Path(), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(extra)
			f.Close()
		}
		return tb.Path()
	}
	partial := record([]byte("\x10\x90\x03"))[:10] // a record cut in its header
	for _, tc := range []struct {
		name          string
		extra         []byte
		step          int64
		kept, dropped int
	}{
		{"all kept", nil, 300, 5, 0},
		{"cut after a step", nil, 100, 3, 2},
		{"cut between steps", nil, 250, 4, 1},
		{"emptied", nil, -1, 0, 5},
		{"partial last record", partial, 300, 5, 1},
		{"partial record after the cut", partial, 100, 3, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(t, tc.extra)
			kept, dropped, err := TruncateEvents(path, tc.step)
			if err != nil {
				t.Fatal(err)
			}
			if kept != tc.kept || dropped != tc.dropped {
				t.Errorf("kept %d, dropped %d; want %d, %d", kept, dropped, tc.kept, tc.dropped)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			evs, err := readAll(f)
			if err != nil {
				t.Fatalf("the cut file does not read back: %v", err)
			}
			var got []int64
			for _, ev := range evs[1:] {
				got = append(got, ev.Step)
			}
			if evs[0].FileVersion != fileVersion || !slices.Equal(got, steps[:tc.kept]) {
				t.Errorf("steps left %v, want %v (version %q)", got, steps[:tc.kept], evs[0].FileVersion)
			}
		})
	}
	t.Run("corrupt record", func(t *testing.T) {
		path := write(t, nil)
		b, _ := os.ReadFile(path)
		b[len(b)-3] ^= 1 // the data of the last record, at step 300
		os.WriteFile(path, b, 0o644)
		if kept, dropped, err := TruncateEvents(path, 100); kept != 3 || dropped != 2 || err != nil {
			t.Errorf("a corrupt record past the cut: kept %d, dropped %d, %v; want 3, 2, nil", kept, dropped, err)
		}
		os.WriteFile(path, b, 0o644)
		if _, _, err := TruncateEvents(path, 300); err == nil {
			t.Error("a corrupt record was accepted")
		}
		if after, _ := os.ReadFile(path); string(after) != string(b) {
			t.Error("the file changed after an error")
		}
	})
}
