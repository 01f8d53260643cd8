package figure_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/figure"
	"github.com/gorl/gorl/scores"
)

func ExampleGroup() {
	// Two seeds of one algorithm, tested every 1000 env steps.
	runs := []figure.Curve{
		{X: []float64{0, 1000, 2000}, Y: []float64{10, 100, 200}},
		{X: []float64{0, 1000, 2000}, Y: []float64{20, 140, 300}},
	}
	s, err := figure.Group("dqn", runs, figure.GroupConfig{}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		panic(err)
	}
	for i := range s.X {
		fmt.Printf("%.0f: mean %.1f, band [%.1f, %.1f]\n", s.X[i], s.Y[i], s.Lo[i], s.Hi[i])
	}
	// Output:
	// 0: mean 15.0, band [10.0, 20.0]
	// 1000: mean 120.0, band [100.0, 140.0]
	// 2000: mean 250.0, band [200.0, 300.0]
}

func ExampleWrite() {
	fig := figure.Intervals{
		Metrics: []string{"IQM"},
		Rows:    []string{"ppo", "dqn"},
		Values:  [][]scores.Interval{{{Estimate: 0.9, Lo: 0.8, Hi: 0.95}, {Estimate: 0.5, Lo: 0.3, Hi: 0.7}}},
		XLabel:  "normalized return",
	}
	var svg bytes.Buffer
	if err := figure.Write(&svg, "svg", fig); err != nil {
		panic(err)
	}
	fmt.Println(bytes.HasPrefix(bytes.TrimSpace(svg.Bytes()), []byte("<?xml")))
	// Output: true
}

func ExamplePoints() {
	fig := figure.Points{
		XLabel: "test return",
		Panels: []figure.PointsPanel{{
			Title:  "CartPole-v1",
			Rows:   []string{"dqn", "ppo"},
			Values: [][]float64{{500, 500, 487.5}, {500, 212.0, 500}},
			Marks:  []float64{475, 475},
		}},
	}
	var png bytes.Buffer
	if err := figure.Write(&png, "png", fig); err != nil {
		panic(err)
	}
	fmt.Println(bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")))
	// Output: true
}
