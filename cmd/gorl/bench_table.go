package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// mdTable writes a Markdown table (a header row, a delimiter row, then one
// row per call of Row) with its columns aligned, so that the output of gorl
// bench reads well in a terminal and pastes into BENCHMARKS.md as it is.
type mdTable struct {
	tw *tabwriter.Writer
}

// newTable starts a table with the given column headers on w.
func newTable(w io.Writer, header ...string) *mdTable {
	t := &mdTable{tw: tabwriter.NewWriter(w, 0, 4, 1, ' ', 0)}
	t.Row(header...)
	delim := make([]string, len(header))
	for i := range delim {
		delim[i] = "---"
	}
	t.Row(delim...)
	return t
}

// Row adds a row of cells.
func (t *mdTable) Row(cells ...string) {
	fmt.Fprintln(t.tw, "| "+strings.Join(cells, "\t| ")+"\t|")
}

// Flush writes the table; call it after the last row.
func (t *mdTable) Flush() error { return t.tw.Flush() }
