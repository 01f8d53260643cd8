package logger

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// benchValues is a typical trainer record: the statistics Tianshou's
// trainers log per collect step.
var benchValues = map[string]float64{
	"returns_mean": 195.25, "returns_std": 3.5, "lens_mean": 200, "lens_std": 0,
	"n_collected_episodes": 8, "n_collected_steps": 1600, "loss": 0.0123, "epsilon": 0.05,
}

func BenchmarkCSVLog(b *testing.B) {
	l, _ := NewCSV(io.Discard)
	benchLog(b, l)
}

func BenchmarkJSONLLog(b *testing.B) {
	benchLog(b, NewJSONL(io.Discard))
}

// BenchmarkTensorBoardLog includes the write system call of every Log.
func BenchmarkTensorBoardLog(b *testing.B) {
	tb, err := NewTensorBoard(TensorBoardConfig{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	benchLog(b, tb)
}

func benchLog(b *testing.B, l Logger) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := l.Log("train", int64(i), benchValues); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadEvents reads back 1000 events of 8 scalars; bytes/s are
// those of the file.
func BenchmarkReadEvents(b *testing.B) {
	var file []byte
	keys := sortedKeys(nil, benchValues)
	for i := 0; i < 1000; i++ {
		buf, start := beginRecord(file)
		file = endRecord(appendScalarEvent(buf, 1.7e9, int64(i), "train", keys, benchValues), start)
	}
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, err := range ReadEvents(bytes.NewReader(file)) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkProgressUpdate is the cost of an Update that does not redraw,
// the common case when the trainer reports every step.
func BenchmarkProgressUpdate(b *testing.B) {
	p := NewProgress(io.Discard, ProgressConfig{Interval: time.Hour})
	if err := p.Start(1, 1<<40); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.Update(int64(i), 1)
	}
}
