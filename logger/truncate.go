package logger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// TruncateJSONL cuts the JSON lines file at path (written by JSONL) after
// its last record logged at a step ≤ step, so that a run resumed from a
// checkpoint taken at step continues the file as if it had never gone
// further. Records are in step order, as a trainer logs them, so the cut
// drops the first record past step and everything after it; a last line
// without its newline (a write cut short) is dropped too. A step < 0
// empties the file.
//
// It returns the number of records dropped (a partial line counts as one).
// A missing file is no error. A complete line that is not a record before
// the cut is an error, and the file is left as it was.
func TruncateJSONL(path string, step int64) (dropped int, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("logger: %w", err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var keep int64 // bytes of the records kept
	cut := false
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return 0, fmt.Errorf("logger: %s: %w", path, err)
		}
		if err == io.EOF { // no newline: a partial last line
			dropped++
			break
		}
		if cut {
			dropped++
			continue
		}
		var rec struct {
			Step *int64 `json:"step"`
		}
		if err := json.Unmarshal(line, &rec); err != nil || rec.Step == nil {
			return 0, fmt.Errorf("logger: %s: line %d is not a record: %q", path, n, bytes.TrimSpace(line))
		}
		if *rec.Step > step {
			cut = true
			dropped++
			continue
		}
		keep += int64(len(line))
	}
	if dropped == 0 {
		return 0, nil
	}
	if err := f.Truncate(keep); err != nil {
		return 0, fmt.Errorf("logger: %w", err)
	}
	return dropped, f.Close()
}

// TruncateEvents cuts the TensorBoard event file at path after its last
// event logged at a step ≤ step (the file version event, which has no
// summary, is always kept), for the same purpose as TruncateJSONL; a record
// cut short at the end of the file is dropped too. Events are in step
// order, as TensorBoard writes them. It returns the number of events kept
// (the version event aside) and dropped (counting the records past the cut
// up to the first that does not read back, if any). A record before the
// cut that fails its checksum or does not decode is an error, and the file
// is left as it was.
func TruncateEvents(path string, step int64) (kept, dropped int, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, 0, fmt.Errorf("logger: %w", err)
	}
	defer f.Close()
	// ReadEvents reads exactly the bytes of each record, so the count of
	// bytes read when an event is yielded is the offset of its end.
	cr := &countingReader{r: bufio.NewReader(f)}
	var end, keep int64 // end of the last record read; end of the last one kept
	cut := false
	for ev, err := range ReadEvents(cr) {
		if err != nil {
			if !cut && !errors.Is(err, io.ErrUnexpectedEOF) {
				return 0, 0, fmt.Errorf("logger: %s: %w", path, err)
			}
			dropped++ // a record cut short, or a bad one past the cut
			break
		}
		start := end
		end = cr.n
		switch {
		case cut:
			dropped++
		case ev.FileVersion == "" && ev.Step > step:
			cut = true
			keep = start
			dropped++
		default:
			if ev.FileVersion == "" {
				kept++
			}
			keep = end
		}
	}
	if dropped == 0 {
		return kept, 0, nil
	}
	if err := f.Truncate(keep); err != nil {
		return 0, 0, fmt.Errorf("logger: %w", err)
	}
	return kept, dropped, f.Close()
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
