package dashboard

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// chunk is how many bytes of a log one step of a follower reads; a line
// longer than this is skipped.
const chunk = 256 << 10

// follower reads a growing JSON-lines file one complete line at a time and
// notices when the file is truncated, replaced or deleted.
type follower struct {
	path    string
	f       *os.File
	info    os.FileInfo // of f, to tell a replaced file
	started bool        // step has run once
	off     int64       // bytes of complete lines consumed
	last    []byte      // the last line consumed, with its newline
	skip    bool        // inside a line longer than chunk
	buf     []byte      // scratch
}

// step reads what the file holds past the lines already consumed, up to
// chunk bytes. reset reports that the consumer must forget every record it
// was given (always on the first step, then when the file was truncated,
// replaced, deleted or created again); exists whether the file is there;
// recs are the new records, compacted JSON objects; more that the file
// holds more bytes than this step read.
func (f *follower) step() (reset, exists bool, recs []json.RawMessage, more bool) {
	first := !f.started
	f.started = true
	st, err := os.Lstat(f.path)
	if err != nil || !st.Mode().IsRegular() {
		had := f.f != nil
		f.close()
		return first || had, false, nil, false
	}
	switch {
	case f.f == nil || !os.SameFile(st, f.info):
		f.close()
		file, err := openRegular(f.path)
		if err != nil {
			return first, false, nil, false
		}
		f.f, f.info = file, st
		reset = true
	case st.Size() < f.off || !f.lastIntact():
		f.off, f.last, f.skip = 0, nil, false
		reset = true
	}
	recs, more = f.read(st.Size())
	return reset || first, true, recs, more
}

// lastIntact reports whether the file still holds the last line consumed
// where it was read: a file truncated and written again past its old size
// between two steps fails this.
func (f *follower) lastIntact() bool {
	if len(f.last) == 0 {
		return true
	}
	f.buf = grow(f.buf, len(f.last))
	n, _ := f.f.ReadAt(f.buf, f.off-int64(len(f.last)))
	return n == len(f.last) && bytes.Equal(f.buf[:n], f.last)
}

// read consumes the complete lines among the next chunk bytes of a file of
// the given size.
func (f *follower) read(size int64) (recs []json.RawMessage, more bool) {
	if f.off >= size {
		return nil, false
	}
	n := int(min(size-f.off, chunk))
	f.buf = grow(f.buf, n)
	got, err := f.f.ReadAt(f.buf, f.off)
	if err != nil && err != io.EOF {
		return nil, false
	}
	data := f.buf[:got]
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		if got == chunk { // a line longer than chunk: drop what was read of it
			f.off += int64(got)
			f.skip, f.last = true, nil
			return nil, true
		}
		return nil, false // a partial last line: wait for its newline
	}
	lines := data[:end+1]
	f.off += int64(end + 1)
	f.last = append(f.last[:0], lines[bytes.LastIndexByte(lines[:end], '\n')+1:]...)
	for len(lines) > 0 {
		i := bytes.IndexByte(lines, '\n')
		line := lines[:i]
		lines = lines[i+1:]
		if f.skip {
			f.skip = false
			continue
		}
		var c bytes.Buffer
		if line = bytes.TrimSpace(line); len(line) == 0 || line[0] != '{' || json.Compact(&c, line) != nil {
			continue
		}
		recs = append(recs, c.Bytes())
	}
	return recs, f.off < size
}

func (f *follower) close() {
	if f.f != nil {
		f.f.Close()
	}
	f.f, f.info, f.off, f.last, f.skip = nil, nil, 0, nil, false
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// serveLog streams the run's log as server-sent events until the client
// goes away or the server shuts down (the request's context ends).
func (s *Server) serveLog(w http.ResponseWriter, r *http.Request) {
	dir := s.runDir(w, r)
	if dir == "" {
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, "retry: 2000\n\n"); err != nil {
		return
	}
	flusher.Flush()

	f := &follower{path: filepath.Join(dir, LogFile)}
	defer f.close()
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	var ev []byte
	for {
		for more := true; more; {
			var reset, exists bool
			var recs []json.RawMessage
			reset, exists, recs, more = f.step()
			ev = ev[:0]
			if reset {
				ev = append(ev, "event: reset\ndata: {\"exists\":"...)
				if exists {
					ev = append(ev, "true}\n\n"...)
				} else {
					ev = append(ev, "false}\n\n"...)
				}
			}
			if len(recs) > 0 {
				ev = append(ev, "event: records\ndata: ["...)
				for i, rec := range recs {
					if i > 0 {
						ev = append(ev, ',')
					}
					ev = append(ev, rec...)
				}
				ev = append(ev, "]\n\n"...)
			}
			if len(ev) > 0 {
				if _, err := w.Write(ev); err != nil {
					return
				}
				flusher.Flush()
			}
			if r.Context().Err() != nil {
				return
			}
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}
