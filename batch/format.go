package batch

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gorl/gorl/nd"
)

// String returns b in the nested layout of Tianshou's repr, which the seeds
// print:
//
//	Batch(
//	    a: array(4),
//	    obs: Batch(
//	             x: array([1, 2]),
//	         ),
//	    c: 'hello',
//	)
//
// Each key is indented by four spaces and its value's continuation lines
// by six plus the key's length; arrays print as nd's numpy repr, strings
// as Python string literals, nil as None, custom leaves and other values
// through their String method (fmt's %v otherwise). An empty Batch prints
// as Batch().
func (b *Batch) String() string {
	var sb strings.Builder
	b.format(&sb)
	return sb.String()
}

func (b *Batch) format(sb *strings.Builder) {
	if len(b.ents) == 0 {
		sb.WriteString("Batch()")
		return
	}
	sb.WriteString("Batch(\n")
	for _, e := range b.ents {
		indent := "\n" + strings.Repeat(" ", 6+utf8.RuneCountInString(e.key))
		sb.WriteString("    ")
		sb.WriteString(e.key)
		sb.WriteString(": ")
		sb.WriteString(strings.ReplaceAll(valueRepr(e.val), "\n", indent))
		sb.WriteString(",\n")
	}
	sb.WriteString(")")
}

// valueRepr prints one value of a Batch.
func valueRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case *nd.Array:
		return x.String()
	case *Batch:
		return x.String()
	case string:
		return nd.Repr(x)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}
