package logger

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"strconv"
)

// Record is one line of a JSONL file: the values of one Log call.
type Record struct {
	Step   int64
	Scope  string
	Values map[string]float64
}

// ReadJSONL returns an iterator over the records of a file written by
// JSONL, in file order. A value written as the string "NaN", "+Inf" or
// "-Inf" reads back as that float64. A last line without its newline is a
// record still being written and is not yielded. A line that is not such a
// record yields an error naming its line number and ends the iteration, as
// does an error of r. The iterator reads r as it goes and is single-use.
func ReadJSONL(r io.Reader) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		br := bufio.NewReader(r)
		for line := 1; ; line++ {
			b, err := br.ReadBytes('\n')
			if errors.Is(err, io.EOF) {
				return // a complete file ends with '\n'; the rest is being written
			}
			if err != nil {
				yield(Record{}, fmt.Errorf("logger: reading JSON lines: %w", err))
				return
			}
			rec, err := decodeRecord(b)
			if err != nil {
				yield(Record{}, fmt.Errorf("logger: JSON lines, line %d: %w", line, err))
				return
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

func decodeRecord(b []byte) (Record, error) {
	var raw struct {
		Step   *int64                     `json:"step"`
		Scope  *string                    `json:"scope"`
		Values map[string]json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return Record{}, err
	}
	if raw.Step == nil || raw.Scope == nil || raw.Values == nil {
		return Record{}, errors.New(`not a record: "step", "scope" or "values" is missing`)
	}
	rec := Record{Step: *raw.Step, Scope: *raw.Scope, Values: make(map[string]float64, len(raw.Values))}
	for k, v := range raw.Values {
		var s string
		if json.Unmarshal(v, &s) == nil {
			switch s {
			case "NaN":
				rec.Values[k] = math.NaN()
			case "+Inf":
				rec.Values[k] = math.Inf(1)
			case "-Inf":
				rec.Values[k] = math.Inf(-1)
			default:
				return Record{}, fmt.Errorf("value %q of %q is not a number", s, k)
			}
			continue
		}
		x, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return Record{}, fmt.Errorf("value %s of %q is not a number", v, k)
		}
		rec.Values[k] = x
	}
	return rec, nil
}
