package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gorl/gorl/dashboard"
)

// record is a line of log.jsonl at step with a test return.
func record(step int, ret float64) string {
	return fmt.Sprintf(`{"step":%d,"scope":"test","values":{"return_mean":%g,"return_std":1}}`+"\n", step, ret)
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gifFile is a 2×2 GIF of one frame.
func gifFile(t *testing.T) string {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Black, color.White})
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, &gif.GIF{Image: []*image.Paletted{img}, Delay: []int{0}}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPage(t *testing.T) {
	chromium := os.Getenv("GORL_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("no Chromium: %v (install Debian's chromium or set GORL_CHROMIUM)", err)
	}
	runs := t.TempDir()
	logA := filepath.Join(runs, "ppo-a", dashboard.LogFile)
	write(t, filepath.Join(runs, "ppo-a", dashboard.ConfigFile), `{"algo":"ppo","env":"CartPole-v1","seed":1}`)
	write(t, logA, record(0, 20)+record(1000, 60))
	write(t, filepath.Join(runs, "ppo-a", "eval.gif"), gifFile(t))
	write(t, filepath.Join(runs, "sweep", "dqn-b", dashboard.ConfigFile), `{"algo":"dqn","env":"CartPole-v1","seed":2}`)
	write(t, filepath.Join(runs, "sweep", "dqn-b", dashboard.LogFile), record(0, 15))

	s, err := dashboard.New(dashboard.Config{Dir: runs, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s) // a free port on the loopback address
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	defer cancelBrowser()

	// curve waits until the test-return chart holds n points (both runs
	// together).
	curve := func(n int) chromedp.Action[chromedp.Void] {
		return chromedp.WaitVisible(fmt.Sprintf(`canvas[data-metric="test/return_mean"][data-points="%d"]`, n))
	}
	// The page opens on the runs named in its address.
	err = chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/?run=ppo-a&run=sweep/dqn-b"),
		chromedp.WaitVisible(`li[data-run="ppo-a"]`),
		chromedp.WaitVisible(`li[data-run="sweep/dqn-b"]`),
		curve(3),
		chromedp.WaitVisible(`#gifs img`),
	)
	if err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(`.status[data-run="ppo-a"]`))
	if err != nil || status != "2 records, step 1000" {
		t.Errorf("status of ppo-a: %q, %v; want \"2 records, step 1000\"", status, err)
	}
	config, err := chromedp.Run(ctx, chromedp.Text(`#configs`))
	if err != nil || !bytes.Contains([]byte(config), []byte(`"algo": "dqn"`)) {
		t.Errorf("configs shown: %q, %v; want dqn's", config, err)
	}
	gifWidth, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelector("#gifs img").naturalWidth`))
	if err != nil || gifWidth != 2 {
		t.Errorf("eval GIF width %d, %v; want 2 (the GIF decoded)", gifWidth, err)
	}

	// A new log line reaches the page.
	f, err := os.OpenFile(logA, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(record(2000, 150)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := chromedp.Do(ctx, curve(4)); err != nil {
		t.Fatalf("the appended record did not reach the chart: %v", err)
	}
	status, err = chromedp.Run(ctx, chromedp.Text(`.status[data-run="ppo-a"]`))
	if err != nil || status != "3 records, step 2000" {
		t.Errorf("status of ppo-a after the append: %q, %v; want \"3 records, step 2000\"", status, err)
	}

	// A log cut back, as a resume does, redraws the curve from the cut file.
	if err := os.Truncate(logA, int64(len(record(0, 20)))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, curve(2)); err != nil {
		t.Fatalf("the truncation did not reach the chart: %v", err)
	}
}
