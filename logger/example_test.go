package logger_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gorl/gorl/logger"
)

func ExampleCSV() {
	l, err := logger.NewCSV(os.Stdout)
	if err != nil {
		panic(err)
	}
	defer l.Close()
	_ = l.Log("train", 1000, map[string]float64{"rew": 21.5, "len": 22})
	_ = l.Log("test", 1000, map[string]float64{"rew": 35})
	// A key seen for the first time needs no new header.
	_ = l.Log("update", 1000, map[string]float64{"loss": 0.125})
	// Output:
	// step,scope,key,value
	// 1000,train,len,22
	// 1000,train,rew,21.5
	// 1000,test,rew,35
	// 1000,update,loss,0.125
}

func ExampleJSONL() {
	l := logger.NewJSONL(os.Stdout)
	defer l.Close()
	_ = l.Log("train", 1000, map[string]float64{"rew": 21.5, "len": 22})
	_ = l.Log("update", 1000, map[string]float64{"loss": 0.125})
	// Output:
	// {"step":1000,"scope":"train","values":{"len":22,"rew":21.5}}
	// {"step":1000,"scope":"update","values":{"loss":0.125}}
}

func ExampleTensorBoard() {
	dir, err := os.MkdirTemp("", "tb")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	tb, err := logger.NewTensorBoard(logger.TensorBoardConfig{
		Dir: dir,
		Now: func() time.Time { return time.Unix(1700000000, 0) },
	})
	if err != nil {
		panic(err)
	}
	_ = tb.Log("train", 1000, map[string]float64{"rew": 21.5, "len": 22})
	_ = tb.Log("test", 1000, map[string]float64{"rew": 35})
	if err := tb.Close(); err != nil {
		panic(err)
	}

	f, err := os.Open(tb.Path())
	if err != nil {
		panic(err)
	}
	defer f.Close()
	for ev, err := range logger.ReadEvents(f) {
		if err != nil {
			panic(err)
		}
		if ev.FileVersion != "" {
			fmt.Printf("version %s at %.0f\n", ev.FileVersion, ev.WallTime)
		}
		for _, s := range ev.Scalars {
			fmt.Printf("step %d %s = %.3f\n", ev.Step, s.Tag, s.Value)
		}
	}
	// Output:
	// version brain.Event:2 at 1700000000
	// step 1000 train/len = 22.000
	// step 1000 train/rew = 21.500
	// step 1000 test/rew = 35.000
}

func ExampleProgress() {
	clock := time.Unix(0, 0)
	var out bytes.Buffer
	p := logger.NewProgress(&out, logger.ProgressConfig{
		Interval: time.Second,
		Epochs:   3,
		Now:      func() time.Time { return clock },
	})
	_ = p.Start(1, 5000)
	for step := int64(500); step <= 5000; step += 500 {
		clock = clock.Add(250 * time.Millisecond) // 2000 steps/s
		_ = p.Update(step, float64(step)/100)
	}
	_ = p.Close()
	// Each redraw starts with '\r'; print them one per line.
	for _, line := range strings.Split(strings.TrimPrefix(out.String(), "\r"), "\r") {
		fmt.Println(strings.TrimRight(line, "\n"))
	}
	// Output:
	// epoch 1/3 [--------------------] 0/5000 return - - steps/s
	// epoch 1/3 [########------------] 2000/5000 return 20.000 2000.0 steps/s ETA 0:02 run 0:07
	// epoch 1/3 [################----] 4000/5000 return 40.000 2000.0 steps/s ETA 0:01 run 0:06
	// epoch 1/3 [####################] 5000/5000 return 50.000 2000.0 steps/s ETA 0:00 run 0:05
}

func ExampleMulti() {
	var csvOut, jsonOut bytes.Buffer
	c, err := logger.NewCSV(&csvOut)
	if err != nil {
		panic(err)
	}
	l := logger.Multi{c, logger.NewJSONL(&jsonOut)}
	if err := l.Log("test", 2000, map[string]float64{"rew": 195}); err != nil {
		panic(err)
	}
	if err := l.Close(); err != nil {
		panic(err)
	}
	fmt.Print(csvOut.String(), jsonOut.String())
	// Output:
	// step,scope,key,value
	// 2000,test,rew,195
	// {"step":2000,"scope":"test","values":{"rew":195}}
}

// TensorBoardConfig's clock stamps the events and names the file, so a
// fixed clock gives a known name: events.out.tfevents.<seconds>.<host>.
func ExampleTensorBoardConfig() {
	dir, err := os.MkdirTemp("", "tb")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	tb, err := logger.NewTensorBoard(logger.TensorBoardConfig{
		Dir: filepath.Join(dir, "run1"), // created
		Now: func() time.Time { return time.Unix(1700000000, 0) },
	})
	if err != nil {
		panic(err)
	}
	defer tb.Close()
	rel, _ := filepath.Rel(dir, tb.Path())
	fmt.Println(strings.HasPrefix(rel, filepath.Join("run1", "events.out.tfevents.1700000000.")))
	_, err = logger.NewTensorBoard(logger.TensorBoardConfig{})
	fmt.Println(err != nil)
	// Output:
	// true
	// true
}

// ProgressConfig.Plain is for output that is not a terminal (a log file,
// a pipe): Start draws nothing, and each draw is a line of its own. With an
// Interval of 1 s, the updates every 0.5 s redraw every other time; End
// draws the final state once more.
func ExampleProgressConfig() {
	clock := time.Unix(0, 0)
	p := logger.NewProgress(os.Stdout, logger.ProgressConfig{
		Plain:    true,
		Interval: time.Second,
		Now:      func() time.Time { return clock },
	})
	_ = p.Start(1, 1000)
	for step := int64(250); step <= 1000; step += 250 {
		clock = clock.Add(500 * time.Millisecond) // 500 steps/s
		_ = p.Update(step, 9.5)
	}
	_ = p.End()
	// Output:
	// epoch 1 [##########----------] 500/1000 return 9.500 500.0 steps/s ETA 0:01
	// epoch 1 [####################] 1000/1000 return 9.500 500.0 steps/s ETA 0:00
	// epoch 1 [####################] 1000/1000 return 9.500 500.0 steps/s ETA 0:00
}
