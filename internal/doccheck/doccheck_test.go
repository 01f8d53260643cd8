package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const number = `\d+(?:[.,]\d+)*`

// timing matches a number, optionally a range of two, followed by a time
// unit. The unit must end a word, so "64s" in "float64s" is not a timing
// (the number must start a word too).
var timing = regexp.MustCompile(`(?:^|[^\w.])` + number + `(?:\s*(?:[-–]|to)\s*` + number + `)?\s*` +
	`(?:ns|µs|μs|us|ms|s|secs?|seconds?|milliseconds?|microseconds?|nanoseconds?)(?:/op)?(?:[^\w]|$)`)

// seedFile matches a citation of a seed file: "seed 002", "seeds 000 and
// 001", or a file name such as "000_b134.txt".
var seedFile = regexp.MustCompile(`(?i)\bseeds?\s+\d{3}\b|\b\d{3}_[0-9a-f]{4,}`)

// quoted matches text between double quotes on one line, which the check
// skips.
var quoted = regexp.MustCompile(`"[^"\n]*"`)

// A finding is one offending comment line.
type finding struct {
	line int
	what string // "timing" or "seed file"
	text string // the matched text
}

// segment is one comment's text with the file line its text starts on.
type segment struct {
	off  int // offset of the text in the group's joined text
	line int
}

// check returns the findings in the comments of one Go source file.
func check(filename string, src []byte) ([]finding, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []finding
	for _, g := range f.Comments {
		out = append(out, checkGroup(fset, g)...)
	}
	return out, nil
}

// checkGroup joins a comment group's lines without their comment markers, so
// that a figure broken across lines is found, and reports each match at the
// line where it starts.
func checkGroup(fset *token.FileSet, g *ast.CommentGroup) []finding {
	var sb strings.Builder
	var segs []segment
	for _, c := range g.List {
		text := c.Text
		switch {
		case strings.HasPrefix(text, "//"):
			text = text[2:]
		case strings.HasPrefix(text, "/*"):
			text = strings.TrimSuffix(text[2:], "*/")
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		segs = append(segs, segment{off: sb.Len(), line: fset.Position(c.Slash).Line})
		sb.WriteString(text)
	}
	joined := sb.String()
	// Blank out quoted text, keeping offsets and newlines.
	masked := quoted.ReplaceAllStringFunc(joined, func(s string) string {
		return strings.Repeat(" ", len(s))
	})
	lineOf := func(off int) int {
		s := segs[0]
		for _, t := range segs[1:] {
			if t.off > off {
				break
			}
			s = t
		}
		return s.line + strings.Count(joined[s.off:off], "\n")
	}
	var out []finding
	for _, m := range timing.FindAllStringIndex(masked, -1) {
		start := m[0]
		// Skip the non-digit that the match may begin with.
		for start < m[1] && (joined[start] < '0' || joined[start] > '9') {
			start++
		}
		text := strings.Join(strings.Fields(joined[start:m[1]]), " ")
		text = strings.TrimRight(text, ".,;:)")
		out = append(out, finding{line: lineOf(start), what: "timing", text: text})
	}
	for _, m := range seedFile.FindAllStringIndex(masked, -1) {
		out = append(out, finding{line: lineOf(m[0]), what: "seed file", text: joined[m[0]:m[1]]})
	}
	return out
}

func TestCheck(t *testing.T) {
	// Each source is a small Go file; want is the number of findings and
	// the line of the first.
	tests := []struct {
		name  string
		src   string
		want  int
		first int
	}{
		{"none", "// Package p adds numbers.\npackage p\n", 0, 0},
		{"microseconds", "// Add takes 3.1 µs.\npackage p\n", 1, 1},
		{"greek mu", "// Add takes 3.1 μs.\npackage p\n", 1, 1},
		{"milliseconds no space", "package p\n\n// x took 12ms.\nvar x int\n", 1, 3},
		{"range", "// Add takes 60–66 µs\npackage p\n", 1, 1},
		{"ns/op", "// Add: 12 ns/op\npackage p\n", 1, 1},
		{"ms per", "// one update costs 0.4 ms per step\npackage p\n", 1, 1},
		{"seconds", "// solved in a median 0.93 s of wall time\npackage p\n", 1, 1},
		{"seconds spelled out", "// solved in 2 seconds\npackage p\n", 1, 1},
		{"split across lines", "// Add went from 270–290\n// µs to less\npackage p\n", 1, 1},
		{"second line", "// Add is fast:\n// 1,645 µs.\npackage p\n", 1, 2},
		{"block comment", "/*\nAdd is fast:\n12 ns each\n*/\npackage p\n", 1, 3},
		{"trailing comment", "package p\n\nvar x = 1 // 5 us\n", 1, 3},
		{"two figures", "// 5 ns and\n// 7 ns\npackage p\n", 2, 1},
		{"unit without number", "// Add reports cpu-ns/op next to ns/op.\npackage p\n", 0, 0},
		{"float64s", "// reads little-endian float64s\npackage p\n", 0, 0},
		{"word after number", "// 64 samples in 2 sets\npackage p\n", 0, 0},
		{"string literal in code", "package p\n\nvar s = \"12 ms\"\n", 0, 0},
		{"quoted output", "// String returns \"length 12, 1.2ms\".\npackage p\n", 0, 0},
		{"seed file number", "// as seed 002 prints\npackage p\n", 1, 1},
		{"seeds", "// seeds 000 and 001\npackage p\n", 1, 1},
		{"seed file name", "// see 000_b134ab.txt\npackage p\n", 1, 1},
		{"random seed", "// five seeds, seed 2 fails\npackage p\n", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := check("x.go", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.want {
				t.Fatalf("%d findings %v, want %d", len(got), got, tt.want)
			}
			if tt.want > 0 && got[0].line != tt.first {
				t.Errorf("first finding on line %d, want %d", got[0].line, tt.first)
			}
		})
	}
}

// moduleRoot returns the directory holding go.mod above the working
// directory.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// TestModuleComments checks every non-test Go file of the module.
func TestModuleComments(t *testing.T) {
	root := moduleRoot(t)
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor" || rel == "docs") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		found, err := check(path, src)
		if err != nil {
			return err
		}
		files++
		for _, f := range found {
			t.Errorf("%s:%d: %s in a comment: %q", filepath.ToSlash(rel), f.line, f.what, f.text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no Go file found")
	}
}
