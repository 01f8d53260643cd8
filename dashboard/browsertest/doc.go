// Package browsertest checks the dashboard in a real browser: its test
// starts the dashboard on a free loopback port, loads the page in headless
// Chromium through the Chrome DevTools Protocol (github.com/chromedp/chromedp)
// and checks that the runs and their curves appear and that a line appended
// to a log reaches the page.
//
// # Overview
//
// The package is a module of its own, so that the gorl module depends on
// neither chromedp nor the Go version it needs, and so that go test ./... at
// the root of the repository, which does not enter nested modules, stays
// fast and needs no browser. Run it with
//
//	cd dashboard/browsertest && go test ./...
//
// It needs Chromium (Debian's chromium package); GORL_CHROMIUM names the
// executable when it is not /usr/bin/chromium. Without it the test fails
// rather than skips: it runs only when asked for.
package browsertest
