package report

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/sqlbench/sqlbench/internal/testenv"
)

// chromium returns the path of Debian's chromium. Without it the test is
// skipped, unless SQLBENCH_SERVERS=1 (scripts/test, which installs it),
// where a missing browser is a failure (testenv).
func chromium(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	testenv.Need(t, "chromium (scripts/deps.sh installs it with SQLBENCH_SERVERS=1)", err)
	return path
}

// TestHTMLInChromium opens the HTML report of the fixture from a file in
// headless Chromium, fails on any console message of level error or
// warning and any uncaught exception, checks that every chart drew its
// data, and saves a full-page screenshot (also to
// /tmp/sqlbench-report-screenshot.png for a person to look at).
func TestHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	r := browserReport(t) // the fixture and stacked time-share bars
	if err := HTML(f, r); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(dir, "profile")), chromedp.WindowSize(1280, 2000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()

	var mu sync.Mutex
	var problems []string
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning ||
				ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value))
				}
				problems = append(problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "uncaught: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, "log "+string(ev.Entry.Level)+": "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	}

	type chartState struct {
		ID     string `json:"id"`
		Points int    `json:"points"`
		Shapes int    `json:"shapes"`
		Texts  int    `json:"texts"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
	}
	// The first Run starts the browser and its tab; listen from then on.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("chromium: start: %v", err)
	}
	if err := chromedp.Listen(bctx, listen); err != nil {
		t.Fatalf("chromium: listen: %v", err)
	}
	enableLog := chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{})
		return chromedp.Void{}, err
	})
	if err := chromedp.Do(bctx, enableLog, chromedp.Navigate("file://"+page), chromedp.WaitReady("body")); err != nil {
		t.Fatalf("chromium: open the report: %v", err)
	}
	title, err := chromedp.Run(bctx, chromedp.Title())
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	charts, err := chromedp.Run(bctx,
		chromedp.Evaluate[[]chartState](`[...document.querySelectorAll('figure.chart')].map(f => {
		const svg = f.querySelector('svg');
		const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
		return {id: f.id, points: +f.dataset.points,
			shapes: svg ? svg.querySelectorAll('path').length : 0,
			texts: svg ? svg.querySelectorAll('text').length : 0,
			width: Math.round(box.width), height: Math.round(box.height)};
	})`))
	if err != nil {
		t.Fatalf("chromium: inspect the charts: %v", err)
	}
	tables, err := chromedp.Run(bctx, chromedp.Evaluate[[]shownTable](
		`[...document.querySelectorAll('h3')].filter(h => h.textContent.includes(' · memory and latency')).map(h => {
		const table = h.nextElementSibling.querySelector('table');
		const td = c => {
			const box = c.getBoundingClientRect();
			return {text: c.innerText.trim(), visible: box.width > 0 && box.height > 0};
		};
		return {title: h.textContent.trim(),
			header: [...table.querySelectorAll('thead th')].map(th => th.innerText.trim()),
			rows: [...table.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td))};
	})`))
	if err != nil {
		t.Fatalf("chromium: inspect the tables: %v", err)
	}
	shown := tableValues(t, r, tables)
	checkShownMeasures(t, fixtureReport(t), shown) // the fixture's cells; the decomposition's own carry no latency
	shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("chromium: screenshot: %v", err)
	}
	if title != "sqlbench results" {
		t.Errorf("page title %q", title)
	}
	if want := countCharts(r); len(charts) != want || want < 8 {
		t.Errorf("%d charts on the page, want %d (at least 8)", len(charts), want)
	}
	for _, c := range charts {
		// Each data point draws at least one path (a bar or a line
		// vertex's marker), beyond the axes and the grid.
		if c.Points == 0 || c.Shapes < c.Points || c.Texts < 3 || c.Width < 200 || c.Height < 100 {
			t.Errorf("chart %s did not render its data: %+v", c.ID, c)
		}
	}
	mu.Lock()
	for _, p := range problems {
		t.Errorf("browser: %s", p)
	}
	mu.Unlock()
	shotPath := filepath.Join(dir, "screenshot.png")
	if err := os.WriteFile(shotPath, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("/tmp/sqlbench-report-screenshot.png", shot, 0o644); err != nil {
		t.Logf("copy the screenshot: %v", err)
	}
	t.Logf("screenshot: %s (%d bytes), also /tmp/sqlbench-report-screenshot.png", shotPath, len(shot))
}
