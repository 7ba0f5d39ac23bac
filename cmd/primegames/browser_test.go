//go:build browser

package main

// The browser tier: the web app at /app/ in a real Chromium (Debian's chromium, driven by chromedp),
// served by the real server (serve, as `primegames serve` runs it) on a test database. A child plays
// a whole game against the computer on a 360 px phone, and two classmates play each other in two
// browser contexts of their own (their own localStorage), then ask for a rematch. Elements are found
// by their role and accessible name, as Chromium's accessibility tree computes them
// (Accessibility.queryAXTree), never by CSS class. On every page axe-core finds no serious or
// critical violation, the text is at least 16 px, controls at least 44 px, nothing is wider than the
// screen, and the console has no error (a CSP violation would be one).
//
//	go test -tags browser -run TestBrowser ./cmd/primegames
//
// Without chromium (or without web/node_modules, for axe-core) the tier skips, except in CI
// (CI=true), where it fails. SCREENSHOTS=1 writes the screenshots into docs/images.

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/oauth2-proxy/mockoidc"

	"primegames/repo/repotest"
)

// axePath is axe-core, installed by `npm ci` in web/.
const axePath = "../../web/node_modules/axe-core/axe.min.js"

// browserNeeds skips the test when what it needs is missing, or fails it in CI.
func browserNeeds(t *testing.T) (chromium string, axe []byte) {
	t.Helper()
	missing := func(what string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("browser tier: %s (CI installs it: see .ci/run)", what)
		}
		t.Skipf("browser tier skipped: %s", what)
	}
	chromium = os.Getenv("CHROMIUM")
	if chromium == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				chromium = p
				break
			}
		}
	}
	if chromium == "" {
		missing("no chromium on PATH (apt-get install -y chromium, or set CHROMIUM)")
	}
	axe, err := os.ReadFile(axePath)
	if err != nil {
		missing("axe-core is not installed (run npm ci in web/)")
	}
	return chromium, axe
}

// startApp runs the server as `primegames serve` does, on a fresh migrated database, and returns
// its address.
func startApp(t *testing.T, extra ...string) string {
	t.Helper()
	_, dbURL := repotest.NewDBWithURL(t)
	env := map[string]string{
		"DATABASE_URL": dbURL, "LISTEN_ADDR": "127.0.0.1:0", "LOG_LEVEL": "error",
		"SECRET_KEY": "browser tier: a test database's key, no secret",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	cfg, err := loadConfig(envOf(env))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, func(a string) { addr <- a }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("serve: %v", err)
		}
	})
	select {
	case a := <-addr:
		return "http://" + localAddress(a)
	case err := <-done:
		t.Fatalf("serve ended before listening: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("serve did not listen within a minute")
	}
	return ""
}

// startBrowser starts chromium; each page is then a browser context of its own.
func startBrowser(t *testing.T, chromium string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU)
	opts = append(opts, chromedp.Flag("accept-lang", "en-US")) // the tier reads the app in English
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return browser
}

// page is one person's browser: a context of its own, at a width, with its console watched.
type page struct {
	t     *testing.T
	who   string
	base  string
	axe   []byte
	ctx   context.Context
	width int64

	mu       sync.Mutex
	problems []string // console errors and exceptions

	contexts chan struct{} // a new JavaScript context: a new document
}

func newPage(t *testing.T, browser context.Context, who, base string, axe []byte, width int64) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &page{t: t, who: who, base: base, axe: axe, ctx: ctx, width: width, contexts: make(chan struct{}, 1)}
	height := int64(800)
	var opts []chromedp.EmulateViewportOption
	if width < 700 {
		opts = append(opts, chromedp.EmulateMobile)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, opts...)); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		if _, ok := ev.(*runtime.EventExecutionContextCreated); ok {
			select {
			case p.contexts <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// No console error on a normal visit, on every page of every test: checked at the test's end
	// too, before the page closes (a test that expects one clears it with clearConsole).
	t.Cleanup(p.noConsoleErrors)
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				p.mu.Lock()
				p.problems = append(p.problems, fmt.Sprintf("%s %s:%d %s", m.Type, m.URL, m.Line+1, m))
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// byRole finds elements by their role and accessible name ("" for any name) in Chromium's
// accessibility tree, under the query's starting node.
//
// A query that finds nothing waits for the page's next change (see untilChanged) before chromedp
// asks again: an action on an element that is not there yet waits on the page's events.
func byRole(role, name string) chromedp.QueryOption {
	return chromedp.ByFunc(whenChanged(func(ctx context.Context, t *chromedp.Target, n *chromedp.Node) ([]cdp.NodeID, error) {
		return axQuery(ctx, t, n.NodeID, role, name)
	}))
}

// changesJS counts the changes of the page's DOM, as a MutationObserver sees them, and returns a
// mark: the document's identity and the count so far. The observer is set up once per document.
const changesJS = `(() => {
	let w = window.__testChanges;
	if (!w) {
		w = window.__testChanges = {doc: Math.random().toString(36).slice(2), n: 0, waiting: []};
		new MutationObserver(() => { w.n++; for (const wake of w.waiting.splice(0)) wake(); })
			.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
	}
	return w.doc + " " + w.n;
})()`

// changeMark is the page's mark now (see changesJS).
func changeMark(ctx context.Context, t *chromedp.Target) (string, error) {
	return chromedp.Evaluate[string](changesJS)(ctx, t)
}

// untilChanged returns when the page has changed since mark: at once if it has, else at its next
// DOM mutation (or when another document replaced it, which rejects the promise), or at the end of ctx.
func untilChanged(ctx context.Context, t *chromedp.Target, mark string) error {
	js := fmt.Sprintf(`new Promise(resolve => {
		const w = window.__testChanges;
		if (!w || w.doc + " " + w.n !== %q) return resolve(true);
		w.waiting.push(() => resolve(true));
	})`, mark)
	_, err := chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)(ctx, t)
	return err
}

// whenChanged makes a query that finds nothing wait for the next change of the document it
// searches (the page's, or a frame's when the query starts from a frame) before it answers, so that
// chromedp's next try comes after an event of that document, not after a fixed interval.
func whenChanged(query func(context.Context, *chromedp.Target, *chromedp.Node) ([]cdp.NodeID, error)) func(context.Context, *chromedp.Target, *chromedp.Node) ([]cdp.NodeID, error) {
	return func(ctx context.Context, t *chromedp.Target, n *chromedp.Node) ([]cdp.NodeID, error) {
		mark, err := callOnNode(ctx, t, n.NodeID, `function() { return (`+changesOfJS+`)((this.ownerDocument || this)); }`, false, nil)
		if err != nil {
			return nil, nil // between two documents: chromedp waits for the next one
		}
		ids, err := query(ctx, t, n)
		if err != nil || len(ids) > 0 {
			return ids, err
		}
		_, _ = callOnNode(ctx, t, n.NodeID, `function(mark) {
			const w = (this.ownerDocument || this).defaultView.__testChanges;
			return new Promise(resolve => {
				if (!w || w.doc + " " + w.n !== mark) return resolve("");
				w.waiting.push(() => resolve(""));
			});
		}`, true, mark)
		return nil, nil
	}
}

// changesOfJS is changesJS for a given document, which may be a frame's: its window keeps the count.
const changesOfJS = `(doc => {
	const win = doc.defaultView;
	let w = win.__testChanges;
	if (!w) {
		w = win.__testChanges = {doc: Math.random().toString(36).slice(2), n: 0, waiting: []};
		new win.MutationObserver(() => { w.n++; for (const wake of w.waiting.splice(0)) wake(); })
			.observe(doc, {subtree: true, childList: true, attributes: true, characterData: true});
	}
	return w.doc + " " + w.n;
})`

// callOnNode calls fn (a JavaScript function declaration) with this the node, in the node's own
// document's context (a frame's for a node in a frame), with arg as its argument when not nil,
// and returns its string result (awaited when await).
func callOnNode(ctx context.Context, t *chromedp.Target, id cdp.NodeID, fn string, await bool, arg any) (string, error) {
	node, err := cdp.Call(ctx, t, dom.ResolveNode, dom.ResolveNodeParams{NodeID: id, ObjectGroup: "test-changes"})
	if err != nil || node.Object == nil {
		return "", fmt.Errorf("resolving node %d: %v", id, err)
	}
	params := runtime.CallFunctionOnParams{FunctionDeclaration: fn, ObjectID: node.Object.ObjectID, ReturnByValue: ptrTo(true), AwaitPromise: ptrTo(await)}
	if arg != nil {
		raw, err := json.Marshal(arg)
		if err != nil {
			return "", err
		}
		params.Arguments = []*runtime.CallArgument{{Value: jsonv2.Value(raw)}}
	}
	res, err := cdp.Call(ctx, t, runtime.CallFunctionOn, params)
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", fmt.Errorf("%s", res.ExceptionDetails.Text)
	}
	var out string
	if res.Result != nil && len(res.Result.Value) > 0 {
		_ = json.Unmarshal(res.Result.Value, &out)
	}
	return out, nil
}

func ptrTo[T any](v T) *T { return &v }

func axQuery(ctx context.Context, t *chromedp.Target, root cdp.NodeID, role, name string) ([]cdp.NodeID, error) {
	res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{NodeID: root, Role: role, AccessibleName: name})
	if err != nil {
		return nil, err
	}
	var backend []cdp.BackendNodeID
	for _, node := range res.Nodes {
		if !node.Ignored && node.BackendDOMNodeID != 0 {
			backend = append(backend, node.BackendDOMNodeID)
		}
	}
	if len(backend) == 0 {
		return nil, nil
	}
	pushed, err := cdp.Call(ctx, t, dom.PushNodesByBackendIDsToFrontend, dom.PushNodesByBackendIDsToFrontendParams{BackendNodeIDs: backend})
	return pushed.NodeIDs, err
}

// byNamePrefixOf finds the element of a role whose accessible name is the longest that text starts
// with, or, when none is, all elements of that role.
func byNamePrefixOf(role, text string) chromedp.QueryOption {
	return chromedp.ByFunc(whenChanged(func(ctx context.Context, t *chromedp.Target, n *chromedp.Node) ([]cdp.NodeID, error) {
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{NodeID: n.NodeID, Role: role})
		if err != nil {
			return nil, err
		}
		var best, all []cdp.BackendNodeID
		longest := 0
		for _, node := range res.Nodes {
			if node.Ignored || node.BackendDOMNodeID == 0 {
				continue
			}
			all = append(all, node.BackendDOMNodeID)
			var name string
			if node.Name != nil && jsonv2.Unmarshal(node.Name.Value, &name) == nil && name != "" && strings.HasPrefix(text, name) && len(name) > longest {
				best, longest = []cdp.BackendNodeID{node.BackendDOMNodeID}, len(name)
			}
		}
		if len(best) > 0 {
			all = best
		}
		if len(all) == 0 {
			return nil, nil
		}
		pushed, err := cdp.Call(ctx, t, dom.PushNodesByBackendIDsToFrontend, dom.PushNodesByBackendIDsToFrontendParams{BackendNodeIDs: all})
		return pushed.NodeIDs, err
	}))
}

// within scopes a query to the first element of role and name.
func (p *page) within(role, name string) chromedp.QueryOption {
	p.t.Helper()
	nodes := act(p, chromedp.Nodes("", byRole(role, name)), fmt.Sprintf("find %s %q", role, name))
	return chromedp.FromNode(nodes[0])
}

// act runs an action on the page within 30 s and fails the test on an error.
func act[T any](p *page, action chromedp.Action[T], what string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		p.failed()
		p.t.Fatalf("%s: %s: %v", p.who, what, err)
	}
	return v
}

// failed keeps a screenshot of the page and its console for the log of a failing test.
func (p *page) failed() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
		name := filepath.Join(os.TempDir(), fmt.Sprintf("primegames-browser-%s-%d.png", p.who, time.Now().UnixNano()))
		if os.WriteFile(name, png, 0o644) == nil {
			p.t.Logf("%s: the page as it was: %s", p.who, name)
		}
	}
	p.noConsoleErrors()
}

func (p *page) open(path string) {
	p.t.Helper()
	act(p, chromedp.Navigate(p.base+path), "open "+path)
}

func (p *page) click(role, name string, scope ...chromedp.QueryOption) {
	p.t.Helper()
	act(p, chromedp.Click("", append([]chromedp.QueryOption{byRole(role, name)}, scope...)...), fmt.Sprintf("click %s %q", role, name))
}

func (p *page) fill(role, name, text string, scope ...chromedp.QueryOption) {
	p.t.Helper()
	sel := append([]chromedp.QueryOption{byRole(role, name)}, scope...)
	act(p, chromedp.Clear("", sel...), fmt.Sprintf("clear %s %q", role, name))
	act(p, chromedp.SendKeys("", text, sel...), fmt.Sprintf("type into %s %q", role, name))
}

func (p *page) text(role, name string, scope ...chromedp.QueryOption) string {
	p.t.Helper()
	read := chromedp.Text("", append([]chromedp.QueryOption{byRole(role, name)}, scope...)...)
	what := fmt.Sprintf("read %s %q", role, name)
	// The page may redraw the element between finding and reading it (an event came, another
	// page came): then it is found again, a few times at most.
	for range 10 {
		ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
		s, err := chromedp.Run(ctx, read)
		cancel()
		if err == nil || !gone(err) {
			return act(p, func(context.Context, *chromedp.Target) (string, error) { return s, err }, what)
		}
	}
	return act(p, read, what)
}

// gone tells whether err says that a node found a moment ago is no longer in the page.
func gone(err error) bool {
	return strings.Contains(err.Error(), "No node with given id") || strings.Contains(err.Error(), "Could not find node")
}

// has tells whether an element of role and name is on the page now, without waiting.
func (p *page) has(role, name string) bool {
	p.t.Helper()
	// Not from DOM.getDocument, which would renew every node id chromedp holds: from the document's
	// JavaScript object.
	found, err := chromedp.Run(p.ctx, func(ctx context.Context, t *chromedp.Target) (int, error) {
		doc, err := chromedp.Evaluate[*runtime.RemoteObject]("document")(ctx, t)
		if err != nil {
			return 0, err
		}
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{ObjectID: doc.ObjectID, Role: role, AccessibleName: name})
		n := 0
		for _, node := range res.Nodes {
			if !node.Ignored {
				n++
			}
		}
		return n, err
	})
	if err != nil {
		p.t.Fatalf("%s: looking for %s %q: %v", p.who, role, name, err)
	}
	return found > 0
}

// status is the game's status line: the page's first live status.
func (p *page) status() string {
	p.t.Helper()
	return strings.TrimSpace(p.text("status", ""))
}

// statusNow is the status line if there is one now, for a message: it does not wait, nor fail.
func (p *page) statusNow() string {
	if !p.has("status", "") {
		return ""
	}
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Text("", byRole("status", "")))
	return strings.TrimSpace(s)
}

// mark is the page's change mark now (see changesJS). While another document is coming, it waits
// for the new document's JavaScript context, an event of the page.
func (p *page) mark(ctx context.Context) (string, error) {
	for {
		mark, err := chromedp.Run(ctx, changeMark)
		if err == nil {
			return mark, nil
		}
		select {
		case <-p.contexts:
		case <-ctx.Done():
			return "", fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
	}
}

// waitUntil reads cond, which reads the page (has, status, text: roles, names, the live status),
// now and again after each change of the page's DOM, until it holds, for at most d. It waits on the
// page's events (a MutationObserver's), never for a fixed time.
func (p *page) waitUntil(d time.Duration, what string, cond func() bool) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, d)
	defer cancel()
	for {
		if mark, err := p.mark(ctx); err == nil {
			if cond() {
				return
			}
			_ = chromedp.Do(ctx, func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
				return chromedp.Void{}, untilChanged(ctx, t, mark)
			})
		}
		if ctx.Err() != nil {
			p.failed()
			p.t.Fatalf("%s: %s did not happen within %s (status %q)", p.who, what, d, p.statusNow())
		}
		// Another document replaced the page while waiting (an error) or the page changed: read again.
	}
}

// untilAnyChanged returns when any of the pages has changed since its mark, or at the deadline.
func untilAnyChanged(deadline time.Time, pages []*page, marks []string) {
	changed := make(chan struct{}, len(pages))
	var cancels []context.CancelFunc
	for i, p := range pages {
		ctx, cancel := context.WithDeadline(p.ctx, deadline)
		cancels = append(cancels, cancel)
		go func() {
			_ = chromedp.Do(ctx, func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
				return chromedp.Void{}, untilChanged(ctx, t, marks[i])
			})
			changed <- struct{}{}
		}()
	}
	<-changed // each ends at the deadline at the latest
	for _, cancel := range cancels {
		cancel()
	}
}

// audit checks the page as it is now: axe-core's serious and critical violations, text under 16 px,
// controls under 44 px, anything wider than the screen.
func (p *page) audit(what string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](string(p.axe))); err != nil {
		p.t.Fatalf("%s: loading axe-core: %v", p.who, err)
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ["violations"]}).then(r =>
		r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
			.map(v => v.id + " (" + v.impact + "): " + v.help + " at " + v.nodes.map(n => n.target.join(" ")).join(", ")))`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: axe-core on %s: %v", p.who, what, err)
	}
	found2, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const out = [];
		const width = document.documentElement.clientWidth;
		if (document.documentElement.scrollWidth > width) out.push("the page is " + document.documentElement.scrollWidth + " px wide on a " + width + " px screen");
		for (const el of document.querySelectorAll("body *")) {
			const r = el.getBoundingClientRect();
			if ((r.width === 0 && r.height === 0) || r.right <= 0) continue;
			if (r.right > width + 1) out.push(el.tagName + " '" + (el.textContent || "").trim().slice(0, 30) + "' reaches " + Math.round(r.right) + " px");
			const hasText = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
			if (hasText && parseFloat(getComputedStyle(el).fontSize) < 16) out.push(el.tagName + " '" + el.textContent.trim().slice(0, 30) + "' has " + getComputedStyle(el).fontSize + " text");
			if (el.matches("button, input, select, a[href]") && (r.height < 44 || (el.tagName === "BUTTON" && r.width < 44))) out.push(el.tagName + " '" + (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30) + "' is " + Math.round(r.width) + "x" + Math.round(r.height) + " px");
		}
		return out;
	})()`))
	if err != nil {
		p.t.Fatalf("%s: measuring %s: %v", p.who, what, err)
	}
	for _, v := range append(found, found2...) {
		p.t.Errorf("%s, %s at %d px: %s", p.who, what, p.width, v)
	}
}

// screenshot saves the page into docs/images (SCREENSHOTS=1) or the test's directory.
func (p *page) screenshot(name string) {
	p.t.Helper()
	png := act(p, chromedp.FullScreenshot(100), "screenshot")
	dir := p.t.TempDir()
	if os.Getenv("SCREENSHOTS") != "" {
		dir = "../../docs/images"
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("web-app-%s-%d.png", name, p.width)), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// clearConsole forgets the console's messages so far.
func (p *page) clearConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.problems = nil
}

// noConsoleErrors fails the test on any console error seen so far.
func (p *page) noConsoleErrors() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, problem := range p.problems {
		p.t.Errorf("%s: console: %s", p.who, problem)
	}
	p.problems = nil
}

// axNow is the elements of role and name ("" for any name) on the page as it is now, in document
// order, without waiting; with within (a role and a name), only those under the first such element.
func (p *page) axNow(ctx context.Context, role, name string, within ...string) []*accessibility.Node {
	nodes, _ := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) ([]*accessibility.Node, error) {
		doc, err := chromedp.Evaluate[*runtime.RemoteObject]("document")(ctx, t)
		if err != nil {
			return nil, err
		}
		params := accessibility.QueryAXTreeParams{ObjectID: doc.ObjectID, Role: role, AccessibleName: name}
		if len(within) == 2 {
			scope, err := cdp.Call(ctx, t, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{ObjectID: doc.ObjectID, Role: within[0], AccessibleName: within[1]})
			if err != nil || len(unignored(scope.Nodes)) == 0 {
				return nil, err
			}
			params = accessibility.QueryAXTreeParams{BackendNodeID: unignored(scope.Nodes)[0].BackendDOMNodeID, Role: role, AccessibleName: name}
		}
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, params)
		if err != nil {
			return nil, err
		}
		return unignored(res.Nodes), nil
	})
	return nodes
}

func unignored(nodes []*accessibility.Node) []*accessibility.Node {
	var out []*accessibility.Node
	for _, n := range nodes {
		if !n.Ignored && n.BackendDOMNodeID != 0 {
			out = append(out, n)
		}
	}
	return out
}

// axName is an element's accessible name.
func axName(n *accessibility.Node) string {
	var name string
	if n.Name != nil {
		_ = jsonv2.Unmarshal(n.Name.Value, &name)
	}
	return name
}

// axDisabled tells whether an element is disabled (aria-disabled too), as assistive technology hears it.
func axDisabled(n *accessibility.Node) bool {
	for _, prop := range n.Properties {
		if prop.Name == accessibility.PropertyNameDisabled && prop.Value != nil && string(prop.Value.Value) == "true" {
			return true
		}
	}
	return false
}

// clickNow clicks an element found by axNow with the mouse, in its middle, after scrolling it into
// view. It fails, without waiting, when the page has redrawn it since.
func (p *page) clickNow(ctx context.Context, n *accessibility.Node) error {
	return chromedp.Do(ctx, func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, t, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: n.BackendDOMNodeID}); err != nil {
			return chromedp.Void{}, err
		}
		res, err := cdp.Call(ctx, t, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: n.BackendDOMNodeID})
		if err != nil {
			return chromedp.Void{}, err
		}
		if len(res.Quads) == 0 || len(res.Quads[0]) < 8 {
			return chromedp.Void{}, fmt.Errorf("%q has no box", axName(n))
		}
		q := res.Quads[0]
		return chromedp.MouseClickXY((q[0]+q[2]+q[4]+q[6])/4, (q[1]+q[3]+q[5]+q[7])/4)(ctx, t)
	})
}

// playTurn does what the page offers now, as a child who asks for hints would: roll; or ask for a
// hint and tap the card of the hand it names (Primed: "play 7 on 6: …"), else the first card that
// can be played; or the legal move the hint describes (the expert's: the first legal move alone
// may never reach 101 in Prime Climb), else the first move. It reports whether it clicked
// anything. It never waits for a button that is not there: a click may miss a button the page is
// redrawing (an event came), and the caller's loop looks again at the page's next change.
func (p *page) playTurn() bool {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	// Disabled buttons are not for now: while the page sends an action, it disables its controls.
	if roll := playable(p.axNow(ctx, "button", "Roll")); len(roll) > 0 {
		return p.clickNow(ctx, roll[0]) == nil
	}
	cards := playable(p.axNow(ctx, "button", "", "list", "Your cards"))
	if len(cards) == 0 && len(playable(p.axNow(ctx, "button", "", "list", "Moves"))) == 0 {
		return false
	}
	hint := ""
	if button := playable(p.axNow(ctx, "button", "Hint")); len(button) > 0 && p.clickNow(ctx, button[0]) == nil {
		hctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		hint, _ = chromedp.Run(hctx, chromedp.Text("", byRole("status", "Hint")))
		cancel()
		hint = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(hint), "Hint:"))
	}
	// Asking for the hint redrew the cards and the moves: they are looked up after.
	if len(cards) > 0 {
		name := axName(cards[0])
		for _, card := range cards {
			if strings.HasPrefix(hint, "play "+strings.TrimPrefix(axName(card), "Card ")+" ") {
				name = axName(card)
			}
		}
		if again := playable(p.axNow(ctx, "button", name, "list", "Your cards")); len(again) > 0 {
			return p.clickNow(ctx, again[0]) == nil
		}
		return false
	}
	moves := playable(p.axNow(ctx, "button", "", "list", "Moves"))
	if len(moves) == 0 {
		return false
	}
	pick, longest := moves[0], 0
	for _, m := range moves {
		if name := axName(m); name != "" && strings.HasPrefix(hint, name) && len(name) > longest {
			pick, longest = m, len(name)
		}
	}
	return p.clickNow(ctx, pick) == nil
}

// playable is the buttons that are not disabled.
func playable(buttons []*accessibility.Node) []*accessibility.Node {
	var out []*accessibility.Node
	for _, b := range buttons {
		if !axDisabled(b) {
			out = append(out, b)
		}
	}
	return out
}

// playToTheEnd plays every turn of the pages until each says the game is over. After each round it
// waits for the next change of any of the pages (a move shown, the computer's or a classmate's turn
// come through the stream), never for a fixed time.
func playToTheEnd(t *testing.T, limit time.Duration, pages ...*page) {
	t.Helper()
	deadline := time.Now().Add(limit)
	late := func() bool { return time.Now().After(deadline) }
	for {
		marks := make([]string, len(pages))
		for i, p := range pages {
			ctx, cancel := context.WithDeadline(p.ctx, deadline)
			marks[i], _ = p.mark(ctx) // at the deadline, an empty mark: the page "changed"
			cancel()
		}
		over := 0
		for _, p := range pages {
			if late() {
				break
			}
			if strings.HasPrefix(p.status(), "Game over") {
				over++
				continue
			}
			p.playTurn()
		}
		if over == len(pages) {
			return
		}
		if late() {
			for _, p := range pages {
				t.Errorf("%s: %q", p.who, p.statusNow())
				p.failed()
			}
			t.Fatalf("the game did not end within %s", limit)
		}
		untilAnyChanged(deadline, pages, marks)
	}
}

func TestBrowserChildPlaysTheComputerOnAPhone(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	browser := startBrowser(t, chromium)

	ada := newPage(t, browser, "Ada", base, axe, 360)
	ada.open("/app/")
	// The landing page shows at once the form to join a game, and the teacher's way in.
	join := ada.within("form", "Join a game")
	act(ada, chromedp.WaitVisible("", byRole("textbox", "Invite code"), join), "the invite code field")
	act(ada, chromedp.WaitVisible("", byRole("textbox", "Your name"), join), "the name field")
	act(ada, chromedp.WaitVisible("", byRole("button", "Join"), join), "the Join button")
	act(ada, chromedp.WaitVisible("", byRole("link", "Teacher sign-in")), "the teacher's link")
	ada.audit("the landing page")
	ada.screenshot("landing")

	// The sign-in card's page, reached from the landing page; a wrong code is refused in words.
	ada.click("link", "Sign in with your card")
	card := ada.within("form", "Sign in with your card")
	ada.fill("textbox", "Class code", "AAAA-BBBB", card)
	ada.fill("textbox", "Your code", "CCCCCC", card)
	ada.click("button", "Sign in", card)
	ada.waitUntil(30*time.Second, "the refusal", func() bool { return ada.text("alert", "") != "" })
	ada.audit("the sign-in page")
	ada.screenshot("sign-in")
	ada.clearConsole() // the refused sign-in's 404 is logged by the browser itself
	ada.open("/app/")

	versus := ada.within("form", "Play against the computer")
	ada.fill("textbox", "Your name", "Ada", versus)
	ada.click("button", "Play against the computer", versus)
	ada.waitUntil(30*time.Second, "the game page", func() bool {
		s := ada.status()
		return strings.HasPrefix(s, "Your turn") || strings.HasPrefix(s, "Waiting for")
	})
	act(ada, chromedp.WaitVisible("", byRole("image", "")), "the position's picture")
	ada.waitUntil(30*time.Second, "Ada's turn", func() bool { return ada.has("button", "Roll") })
	ada.audit("the game page, before a roll")

	// A hint, then the roll: the moves come as a list of buttons named by what they do.
	ada.click("button", "Hint")
	if hint := ada.text("status", "Hint"); !strings.HasPrefix(hint, "Hint: roll") {
		t.Errorf("hint before the roll: %q", hint)
	}
	ada.click("button", "Roll")
	ada.waitUntil(30*time.Second, "the moves", func() bool { return ada.has("list", "Moves") })
	ada.audit("the game page, with moves")
	ada.screenshot("game")

	// A reload keeps the seat: the token is in localStorage.
	act(ada, chromedp.Reload(), "reload")
	ada.waitUntil(30*time.Second, "the game after a reload", func() bool { return strings.HasPrefix(ada.status(), "Your turn") })

	playToTheEnd(t, 5*time.Minute, ada)
	act(ada, chromedp.WaitVisible("", byRole("button", "Rematch")), "the Rematch button")
	ada.audit("the game's end")
	ada.screenshot("end")
	ada.noConsoleErrors()
}

func TestBrowserTwoClassmatesPlayEachOther(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	browser := startBrowser(t, chromium)

	ada := newPage(t, browser, "Ada", base, axe, 1280)
	ada.open("/app/")
	ada.audit("the landing page")
	ada.screenshot("landing")
	open := ada.within("form", "Play with a classmate")
	ada.fill("textbox", "Your name", "Ada", open)
	ada.click("button", "Open a game", open)
	code := strings.TrimSpace(ada.text("status", "Invite code"))
	if len(code) < 8 {
		t.Fatalf("invite code %q", code)
	}
	ada.audit("the lobby")

	// Bea joins from her phone with the keyboard alone: the code, her name, Enter.
	bea := newPage(t, browser, "Bea", base, axe, 360)
	bea.open("/app/")
	join := bea.within("form", "Join a game")
	bea.fill("textbox", "Invite code", strings.ToLower(code), join)
	bea.fill("textbox", "Your name", "Bea\r", join)
	bea.waitUntil(30*time.Second, "the lobby", func() bool { return strings.HasPrefix(bea.status(), "Waiting for players") })

	ada.click("button", "Start the game")
	for _, p := range []*page{ada, bea} {
		p.waitUntil(30*time.Second, "the start", func() bool {
			s := p.status()
			return strings.HasPrefix(s, "Your turn") || strings.HasPrefix(s, "Waiting for")
		})
	}
	ada.screenshot("game")
	ada.audit("the game page")
	playToTheEnd(t, 3*time.Minute, ada, bea)
	ada.audit("the game's end")
	bea.audit("the game's end")

	// Ada asks for a rematch; Bea's page offers it to her.
	ada.click("button", "Rematch")
	bea.waitUntil(30*time.Second, "the rematch offered", func() bool { return bea.has("button", "Play the rematch") })
	bea.click("button", "Play the rematch")
	for _, p := range []*page{ada, bea} {
		p.waitUntil(30*time.Second, "the rematch", func() bool {
			s := p.status()
			return strings.HasPrefix(s, "Your turn") || strings.HasPrefix(s, "Waiting for")
		})
		p.noConsoleErrors()
	}
}

func TestBrowserTeacherSignsInThroughTheProvider(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	provider, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = provider.Shutdown() })
	// PUBLIC_URL names the server before it listens: a port taken and let go.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	oidc := provider.Config()
	base := startApp(t, "LISTEN_ADDR", addr, "PUBLIC_URL", "http://"+addr,
		"OIDC_ISSUER", oidc.Issuer, "OIDC_CLIENT_ID", oidc.ClientID, "OIDC_CLIENT_SECRET", oidc.ClientSecret)
	browser := startBrowser(t, chromium)

	teacher := newPage(t, browser, "the teacher", base, axe, 1280)
	teacher.open("/app/")
	teacher.click("link", "Teacher sign-in")
	// The provider signs its default user in at once and sends the browser back, through the
	// callback, to /app/teacher with a session.
	act(teacher, chromedp.WaitVisible("", byRole("heading", "Your classrooms")), "the teacher's page")
	teacher.waitUntil(30*time.Second, "the classrooms listed", func() bool {
		return !strings.HasPrefix(teacher.status(), "Loading")
	})
	// A new account owns no classroom yet; without the session the page would say "not signed in".
	if s := teacher.status(); s != "You have no classroom yet." {
		t.Fatalf("after the sign-in: %q", s)
	}
	teacher.audit("the teacher's page")
	teacher.screenshot("teacher")

	// A classroom made on the page, opened: its students, games, assignments and progress.
	teacher.fill("textbox", "Classroom name", "Class 5C")
	teacher.click("button", "Create classroom")
	act(teacher, chromedp.WaitVisible("", byRole("link", "Class 5C")), "the new classroom listed")
	teacher.click("link", "Class 5C")
	act(teacher, chromedp.WaitVisible("", byRole("heading", "Class 5C")), "the classroom's page")
	for _, name := range []string{"Students", "Games", "Assignments", "Progress", "Statistics"} {
		act(teacher, chromedp.WaitVisible("", byRole("region", name)), "the section "+name)
	}
	act(teacher, chromedp.WaitVisible("", byRole("link", "Download CSV")), "the CSV link")
	act(teacher, chromedp.WaitVisible("", byRole("image", "The class's progress over time: games finished, wins, hints and missed opportunities, for the class and each student.")), "the progress picture")
	assignments := teacher.within("region", "Assignments")
	teacher.fill("textbox", "Title", "Three games against the computer", assignments)
	teacher.click("button", "Set assignment", assignments)
	act(teacher, chromedp.WaitVisible("", byRole("table", "Progress on Three games against the computer")), "the assignment's progress")

	// A student joins with the classroom's code; the teacher starts a game for each student and
	// reviews Ada's, step by step.
	joinCode := act(teacher, chromedp.Evaluate[string](`fetch("/v1/me/classrooms").then(r => r.json()).then(j => j.classrooms[0].join_code)`, chromedp.EvalAwaitPromise), "the join code")
	var ada, ben struct {
		Token string `json:"token"`
	}
	call(t, http.MethodPost, base+"/v1/classrooms/join", "", `{"join_code":"`+joinCode+`","name":"Ada"}`, &ada)
	start := teacher.within("form", "Start games")
	act(teacher, chromedp.SetValue("", "1", byRole("combobox", "Students in each game"), start), "one student a game")
	act(teacher, chromedp.SetValue("", "greedy", byRole("combobox", "Computer player"), start), "the greedy computer player")
	teacher.click("button", "Start games", start)
	teacher.waitUntil(30*time.Second, "Ada's game listed", func() bool {
		return strings.Contains(teacher.text("list", "Games"), "Ada")
	})
	teacher.waitUntil(30*time.Second, "Ada in the statistics", func() bool {
		return strings.Contains(teacher.text("table", "Statistics per student"), "Ada")
	})
	list := act(teacher, chromedp.Nodes("", byRole("list", "Games")), "the games")
	act(teacher, chromedp.Click("", byNamePrefixOf("button", "Review Prime Climb: Ada"), chromedp.FromNode(list[0])), "review Ada's game")
	act(teacher, chromedp.WaitVisible("", byRole("image", "The game at entry 1")), "the replay's first step")
	review := teacher.within("group", "Review")
	act(teacher, chromedp.WaitVisible("", byRole("button", "Next"), review), "the Next button")
	act(teacher, chromedp.WaitVisible("", byRole("button", "Previous"), review), "the Previous button")
	// The computer may have played already: then Next steps to the second entry; if not, the
	// game's start is the only entry, and the page says so.
	switch step := strings.TrimSpace(teacher.text("status", "", review)); step {
	case "Entry 1, the last so far":
	case "Entry 1":
		teacher.click("button", "Next", review)
		act(teacher, chromedp.WaitVisible("", byRole("image", "The game at entry 2")), "the replay's second step")
	default:
		t.Errorf("the review's step: %q", step)
	}

	// A game started elsewhere (here by a script of the page, with the same session) reaches the
	// page through the classroom's stream: the list grows without a reload.
	started := act(teacher, chromedp.Evaluate[int](`fetch(location.pathname.replace("/app/teacher", "/v1") + "/games", {method: "POST",
		headers: {"Content-Type": "application/json"}, body: JSON.stringify({game: "prime-climb", group_size: 1, bots: ["random"]})}).then(r => r.status)`,
		chromedp.EvalAwaitPromise), "a game started from a script")
	if started != http.StatusCreated {
		t.Fatalf("starting a game from a script: %d", started)
	}
	teacher.waitUntil(30*time.Second, "the second game listed live", func() bool {
		return strings.Contains(teacher.text("list", "Games"), "Computer (random)")
	})

	// The assignment changed (its title and games each) with its Edit form, then deleted after
	// the in-page confirmation, whose "Keep it" has the focus.
	teacher.click("button", "Edit Three games against the computer")
	edit := teacher.within("form", "Edit Three games against the computer")
	teacher.fill("textbox", "Title", "Five games against the computer", edit)
	teacher.fill("spinbutton", "Games each", "5", edit)
	teacher.click("button", "Save changes", edit)
	act(teacher, chromedp.WaitVisible("", byRole("table", "Progress on Five games against the computer")), "the changed assignment")
	if got := teacher.text("region", "Assignments"); !strings.Contains(got, "5 games of Prime Climb against the computer") {
		t.Errorf("the changed assignment reads %q", got)
	}
	teacher.click("button", "Delete Five games against the computer")
	act(teacher, chromedp.WaitVisible("", byRole("group", "Delete Five games against the computer and its progress? Its games stay.")), "the confirmation")
	if focused := act(teacher, chromedp.Evaluate[string](`document.activeElement.textContent`), "the focus"); focused != "Keep it" {
		t.Errorf("the confirmation's focus is on %q, want Keep it", focused)
	}
	teacher.audit("a deletion to confirm")
	teacher.click("button", "Yes, delete it")
	teacher.waitUntil(30*time.Second, "the assignment gone", func() bool {
		return strings.Contains(teacher.text("region", "Assignments"), "No assignments yet.") && !teacher.has("table", "Progress on Five games against the computer")
	})

	// A classmates' game started from the page (Ada and Ben, no computer player); its live
	// picture is drawn, and drawn again after a move reported by the classroom's stream.
	call(t, http.MethodPost, base+"/v1/classrooms/join", "", `{"join_code":"`+joinCode+`","name":"Ben"}`, &ben)
	act(teacher, chromedp.SetValue("", "2", byRole("combobox", "Students in each game"), start), "two students a game")
	act(teacher, chromedp.SendKeys("", "N", byRole("combobox", "Computer player"), start), "no computer player, chosen from the keyboard")
	if got := act(teacher, chromedp.Value("", byRole("combobox", "Computer player"), start), "the computer player"); got != "" {
		t.Errorf("the computer player chosen: %q, want none", got)
	}
	teacher.click("button", "Start games", start)
	teacher.waitUntil(30*time.Second, "Ada and Ben's game listed", func() bool {
		return strings.Contains(teacher.text("list", "Games"), "Prime Climb: Ada, Ben (under way)")
	})
	picture := byRole("image", "The position of Prime Climb: Ada, Ben (under way)")
	source := func() string {
		return act(teacher, chromedp.AttributeValue("", "src", picture), "the live picture's address").Value
	}
	teacher.waitUntil(30*time.Second, "the live picture drawn", func() bool { return strings.HasPrefix(source(), "blob:") })
	first := source()
	var bens struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	call(t, http.MethodGet, base+"/v1/me/games", ben.Token, "", &bens)
	if len(bens.Items) != 1 {
		t.Fatalf("Ben's games: %+v", bens)
	}
	rolled := 0
	for _, token := range []string{ada.Token, ben.Token} { // whoever is to act rolls
		req, _ := http.NewRequest(http.MethodPost, base+"/v1/games/"+bens.Items[0].ID+"/actions", strings.NewReader(`{"type":"roll"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				rolled++
			}
		}
	}
	if rolled != 1 {
		t.Fatalf("a roll in Ada and Ben's game: %d of the two seats rolled", rolled)
	}
	teacher.waitUntil(30*time.Second, "the live picture drawn again after the roll", func() bool { return source() != first })
	teacher.audit("a classroom's page")
	teacher.screenshot("teacher-class")

	// Games for chosen students only: Ada left out, Ben plays Primed against the random computer.
	act(teacher, chromedp.Click("", byRole("checkbox", "Ada"), start), "leave Ada out")
	act(teacher, chromedp.SetValue("", "primed", byRole("combobox", "Which game"), start), "Primed")
	act(teacher, chromedp.SetValue("", "1", byRole("combobox", "Students in each game"), start), "one student a game")
	act(teacher, chromedp.SetValue("", "random", byRole("combobox", "Computer player"), start), "the random computer player")
	teacher.click("button", "Start games", start)
	teacher.waitUntil(30*time.Second, "Ben's Primed game listed", func() bool {
		return strings.Contains(teacher.text("list", "Games"), "Primed: Ben, Computer (random)")
	})
	if got := teacher.text("list", "Games"); strings.Contains(got, "Primed: Ada") {
		t.Errorf("Ada, left out, got a game: %q", got)
	}

	// Ada's own figures and games, opened from her row of the statistics; Close gives the focus back.
	teacher.click("button", "Games and accuracy of Ada")
	act(teacher, chromedp.WaitVisible("", byRole("region", "Ada: games and accuracy")), "Ada's figures")
	teacher.waitUntil(30*time.Second, "Ada's games listed", func() bool {
		return strings.Contains(teacher.text("list", "Games of Ada"), "Prime Climb: Ada, Ben")
	})
	if got := teacher.text("list", "Games of Ada"); strings.Contains(got, "Primed") {
		t.Errorf("Ada's games list another's: %q", got)
	}
	if got := teacher.text("region", "Ada: games and accuracy"); !strings.Contains(got, "Games won / finished / played:") {
		t.Errorf("Ada's figures read %q", got)
	}
	teacher.audit("a student's figures")
	teacher.click("button", "Close", teacher.within("region", "Ada: games and accuracy"))
	if focused := act(teacher, chromedp.Evaluate[string](`document.activeElement.getAttribute("aria-label")`), "the focus"); focused != "Games and accuracy of Ada" {
		t.Errorf("after Close the focus is on %q, want Ada's row", focused)
	}

	// Desktop first, but a phone works too: the same page at 360 px, audited again.
	act(teacher, chromedp.EmulateViewport(360, 800, chromedp.EmulateMobile), "a phone's width")
	teacher.width = 360
	act(teacher, chromedp.WaitVisible("", byRole("table", "Statistics per student")), "the statistics at 360 px")
	teacher.audit("a classroom's page on a phone")
	teacher.screenshot("teacher-class")

	// The teacher signs out from the page's header, with the keyboard: the session ends on the
	// server (POST /v1/auth/logout) and the app lands on /app/ saying so; the teacher's page no
	// longer opens their classrooms.
	act(teacher, chromedp.Focus("", byRole("button", "Sign out")), "focus Sign out")
	act(teacher, chromedp.KeyEvent("\r"), "press Enter on Sign out")
	act(teacher, chromedp.WaitVisible("", byRole("heading", "Play Prime games")), "the landing page after signing out")
	teacher.waitUntil(30*time.Second, "the confirmation", func() bool { return teacher.status() == "You are signed out." })
	teacher.audit("the landing page after a teacher signed out")
	teacher.noConsoleErrors() // the sign-out itself logged nothing
	if status := act(teacher, chromedp.Evaluate[int](`fetch("/v1/me/classrooms").then(r => r.status)`, chromedp.EvalAwaitPromise), "the classrooms after signing out"); status != http.StatusUnauthorized {
		t.Errorf("the classrooms after signing out = %d, want 401", status)
	}
	teacher.open("/app/teacher")
	act(teacher, chromedp.WaitVisible("", byRole("link", "Sign in as a teacher")), "the teacher's page, signed out")
	teacher.clearConsole() // the 401s asked for here are logged by the browser itself
}

func TestBrowserChildSignsInWithAClassCard(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	// A classroom, Cy in it, and Cy's personal sign-in code, as a teacher's dashboard would make them.
	created := newClassroom(t, base, "Class 4B")
	call(t, http.MethodPost, base+"/v1/classrooms/join", "", `{"join_code":"`+created.Classroom.JoinCode+`","name":"Cy"}`, nil)
	codes := signInCodes(t, base, created)
	browser := startBrowser(t, chromium)

	// The card's QR code opens this link: the page signs Cy in at once and drops the codes from the address.
	cy := newPage(t, browser, "Cy", base, axe, 360)
	cy.open("/app/sign-in#class=" + created.Classroom.JoinCode + "&code=" + codes.Items[0].Code)
	act(cy, chromedp.WaitVisible("", byRole("heading", "Hello, Cy")), "Cy's page")
	if address := act(cy, chromedp.Location(), "the address"); strings.Contains(address, codes.Items[0].Code) {
		t.Errorf("the address still holds the code: %s", address)
	}
	cy.waitUntil(30*time.Second, "Cy's games listed", func() bool { return !strings.HasPrefix(cy.status(), "Loading") })
	cy.audit("a student's page")
	cy.screenshot("student")

	// Cy signs out of the shared device: the app ends the sign-in on the server (its token is
	// refused from then on), forgets it and lands on /app/ saying so.
	token := act(cy, chromedp.Evaluate[string](`JSON.parse(localStorage.getItem("primegames.student")).token`), "Cy's token")
	cy.click("button", "Sign out")
	act(cy, chromedp.WaitVisible("", byRole("heading", "Play Prime games")), "the landing page after signing out")
	cy.waitUntil(30*time.Second, "the confirmation", func() bool { return cy.status() == "You are signed out." })
	if kept := act(cy, chromedp.Evaluate[bool](`localStorage.getItem("primegames.student") !== null`), "the token kept"); kept {
		t.Error("the browser still keeps Cy's token after signing out")
	}
	if cy.has("link", "Your class games") {
		t.Error("the landing page still offers Cy's class games after signing out")
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("Cy's token after signing out = %d, want 401", resp.StatusCode)
	}
	cy.audit("the landing page after signing out")
	cy.noConsoleErrors()
}

// call sends a request of the API with an optional bearer token and JSON body, and decodes a 2xx
// answer into out (when not nil).
// createdClassroom is what POST /v1/classrooms answers, as the tests read it.
type createdClassroom struct {
	Classroom struct {
		ID       string `json:"id"`
		JoinCode string `json:"join_code"`
	} `json:"classroom"`
	TeacherToken string `json:"teacher_token"`
}

// newClassroom makes a classroom through the API, as a teacher's dashboard would.
func newClassroom(t *testing.T, base, name string) createdClassroom {
	t.Helper()
	var created createdClassroom
	call(t, http.MethodPost, base+"/v1/classrooms", "", `{"name":"`+name+`"}`, &created)
	return created
}

// signInCodeList is the classroom's students' sign-in codes; the tests' classrooms have one student.
type signInCodeList struct {
	Items []struct {
		Code string `json:"code"`
	} `json:"items"`
}

func signInCodes(t *testing.T, base string, c createdClassroom) signInCodeList {
	t.Helper()
	var codes signInCodeList
	call(t, http.MethodGet, base+"/v1/classrooms/"+c.Classroom.ID+"/sign-in-codes", c.TeacherToken, "", &codes)
	if len(codes.Items) != 1 {
		t.Fatalf("sign-in codes: %+v", codes)
	}
	return codes
}

func call(t *testing.T, method, url, token, body string, out any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s = %d: %s", method, url, resp.StatusCode, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
	}
}

// TestBrowserChildPlaysInSpanish: a browser whose language is Spanish (--accept-lang=es, which sets
// navigator.languages and the Accept-Language of every call) gets the app in Spanish, its own words
// from web/src/locales/child/es.json and the API's (the moves, the hint, the picture) from the server,
// which follows the same Accept-Language.
func TestBrowserChildPlaysInSpanish(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("lang", "es"), chromedp.Flag("accept-lang", "es"))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}

	lucia := newPage(t, browser, "Lucía", base, axe, 360)
	lucia.open("/app/")
	join := lucia.within("form", "Unirse a una partida")
	act(lucia, chromedp.WaitVisible("", byRole("textbox", "Código de invitación"), join), "the invite code field")
	act(lucia, chromedp.WaitVisible("", byRole("textbox", "Tu nombre"), join), "the name field")
	act(lucia, chromedp.WaitVisible("", byRole("button", "Unirse"), join), "the Join button")
	act(lucia, chromedp.WaitVisible("", byRole("link", "Acceso para docentes")), "the teacher's link")
	if got := act(lucia, chromedp.Evaluate[string](`document.documentElement.lang + " " + navigator.languages.join(",")`), "the page's language"); got != "es es" {
		t.Errorf("<html lang> and navigator.languages: %q, want \"es es\"", got)
	}
	lucia.audit("the landing page in Spanish")

	versus := lucia.within("form", "Jugar contra la computadora")
	lucia.fill("textbox", "Tu nombre", "Lucía", versus)
	lucia.click("button", "Jugar contra la computadora", versus)
	lucia.waitUntil(30*time.Second, "Lucía's turn", func() bool { return lucia.has("button", "Tirar los dados") })
	if s := lucia.status(); s != "Te toca, Lucía." {
		t.Errorf("the status line: %q", s)
	}
	// The hint's words are the server's, in the language the browser asks for.
	lucia.click("button", "Pista")
	if hint := lucia.text("status", "Pista"); !strings.HasPrefix(hint, "Pista: tira los dos dados") {
		t.Errorf("hint before the roll: %q", hint)
	}
	lucia.click("button", "Tirar los dados")
	lucia.waitUntil(30*time.Second, "the moves", func() bool { return lucia.has("list", "Jugadas") })
	// Each move's button says what it does in the server's Spanish: "peón 1: 0 + 8 = 8".
	if moves := lucia.text("list", "Jugadas"); !strings.Contains(moves, "peón") {
		t.Errorf("the moves are not described in Spanish: %q", moves)
	}
	act(lucia, chromedp.WaitVisible("", byRole("heading", "Tus jugadas")), "the moves' heading")
	// The app names the computer player in Spanish when it makes the game.
	if alt := act(lucia, chromedp.Evaluate[string](`[...document.images].map(i => i.alt).join(" ")`), "the picture's text"); !strings.Contains(alt, "Computadora (experta)") {
		t.Errorf("the picture's text alternative: %q", alt)
	}
	lucia.audit("the game page in Spanish")
	lucia.screenshot("game-es")
	lucia.noConsoleErrors()
}

// An LTI launch from a course, in the LMS's frame: a platform simulated in the test (its course
// page frames the tool, its authorization endpoint posts a signed ID token back) launches an
// instructor, who lands on the course's classroom page inside the frame, signed in by the
// hand-over's token alone (no cookie: this browser never signed in), and a learner, who lands on
// their games.
func TestBrowserLTILaunchLandsInTheAppInTheLMSFrame(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tool := "http://" + addr
	const clientID, deployment, admin = "client-7", "deployment-1", "the browser tier's admin token"
	var lms *httptest.Server
	lms = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/jwks":
			_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "lms-key", Algorithm: "RS256", Use: "sig"}}})
		case "/course": // the course's page, the tool in a frame; ?as= says who is signed in to the LMS
			login := url.Values{"iss": {lms.URL}, "login_hint": {r.URL.Query().Get("as")}, "target_link_uri": {tool + "/v1/lti/launch"},
				"client_id": {clientID}, "lti_deployment_id": {deployment}}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Maths 4B</title><link rel="icon" href="data:,"></head><body><main><h1>Maths 4B</h1>
<iframe title="Prime games" src="%s" style="width:100%%;height:1400px;border:0"></iframe></main></body></html>`, html.EscapeString(tool+"/v1/lti/login?"+login.Encode()))
		case "/auth": // the authentication response: the ID token posted back to the tool from the frame
			q := r.URL.Query()
			role, sub := "Instructor", "teacher-1"
			if q.Get("login_hint") == "learner" {
				role, sub = "Learner", "learner-1"
			}
			now := time.Now()
			signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "lms-key"}}, (&jose.SignerOptions{}).WithType("JWT"))
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			token, err := jwt.Signed(signer).Claims(map[string]any{
				"iss": lms.URL, "sub": sub, "aud": clientID, "exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "nonce": q.Get("nonce"),
				"name": "Full Name " + sub, "given_name": map[string]string{"Learner": "Lea", "Instructor": "Ines"}[role],
				"https://purl.imsglobal.org/spec/lti/claim/message_type":    "LtiResourceLinkRequest",
				"https://purl.imsglobal.org/spec/lti/claim/version":         "1.3.0",
				"https://purl.imsglobal.org/spec/lti/claim/deployment_id":   deployment,
				"https://purl.imsglobal.org/spec/lti/claim/roles":           []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#" + role},
				"https://purl.imsglobal.org/spec/lti/claim/context":         map[string]any{"id": "course-42", "title": "Maths 4B", "label": "M4B"},
				"https://purl.imsglobal.org/spec/lti/claim/resource_link":   map[string]any{"id": "link-1"},
				"https://purl.imsglobal.org/spec/lti/claim/target_link_uri": tool + "/v1/lti/launch",
			}).Serialize()
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Launching</title><link rel="icon" href="data:,"></head><body>
<form method="post" action="%s"><input type="hidden" name="id_token" value="%s"><input type="hidden" name="state" value="%s"></form>
<script>document.forms[0].submit()</script></body></html>`, html.EscapeString(q.Get("redirect_uri")), html.EscapeString(token), html.EscapeString(q.Get("state")))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(lms.Close)
	startApp(t, "LISTEN_ADDR", addr, "PUBLIC_URL", tool, "ADMIN_TOKEN", admin, "WEBHOOK_ALLOWED_HOSTS", "127.0.0.1")
	call(t, http.MethodPost, tool+"/v1/lti/platforms", admin, `{"issuer":"`+lms.URL+`","client_id":"`+clientID+`","deployment_ids":["`+deployment+`"],`+
		`"jwks_url":"`+lms.URL+`/jwks","auth_url":"`+lms.URL+`/auth","token_url":"`+lms.URL+`/token"}`, nil)
	browser := startBrowser(t, chromium)

	// The instructor: the course's classroom (made by this first launch, named after the course)
	// inside the frame, its sections loaded with the hand-over's token.
	teacher := newPage(t, browser, "the instructor", lms.URL, axe, 1280)
	teacher.open("/course?as=teacher")
	inFrame := func(p *page) chromedp.QueryOption {
		p.t.Helper()
		frames := act(p, chromedp.Nodes("", byRole("Iframe", "Prime games")), "the tool's frame")
		return chromedp.FromNode(frames[0])
	}
	act(teacher, chromedp.WaitVisible("", byRole("heading", "Maths 4B"), inFrame(teacher)), "the classroom's page in the frame")
	act(teacher, chromedp.WaitVisible("", byRole("region", "Live games"), inFrame(teacher)), "the live games")
	act(teacher, chromedp.WaitVisible("", byRole("table", "Statistics per student"), inFrame(teacher)), "the classroom's statistics, read with the token")
	act(teacher, chromedp.WaitVisible("", byRole("image", "The class's progress over time: games finished, wins, hints and missed opportunities, for the class and each student."), inFrame(teacher)), "the progress picture, fetched with the token")
	// The frame is at the classroom's address, the one-time code gone from it.
	tree := act(teacher, func(ctx context.Context, t *chromedp.Target) (cdppage.GetFrameTreeResult, error) {
		return cdp.Call(ctx, t, cdppage.GetFrameTree, cdp.Empty{})
	}, "the frames")
	if frames := tree.FrameTree.ChildFrames; len(frames) != 1 || !strings.HasPrefix(frames[0].Frame.URL, tool+"/app/teacher/classrooms/") || frames[0].Frame.URLFragment != "" {
		t.Errorf("the tool's frame: %+v", frames)
	}
	teacher.noConsoleErrors()

	// The instructor signs out inside the frame: the hand-over's token is revoked by its id and
	// forgotten, and the frame lands on /app/ saying so.
	teacher.click("button", "Sign out", inFrame(teacher))
	act(teacher, chromedp.WaitVisible("", byRole("heading", "Play Prime games"), inFrame(teacher)), "the landing page in the frame after signing out")
	teacher.waitUntil(30*time.Second, "the confirmation in the frame", func() bool {
		return strings.TrimSpace(teacher.text("status", "", inFrame(teacher))) == "You are signed out."
	})
	teacher.noConsoleErrors()

	// The learner: their games, in the frame.
	learner := newPage(t, browser, "the learner", lms.URL, axe, 360)
	learner.open("/course?as=learner")
	act(learner, chromedp.WaitVisible("", byRole("heading", "Hello, Lea"), inFrame(learner)), "the learner's page in the frame")
	learner.noConsoleErrors()
}

// choose picks an option of a select (a combobox) from the keyboard, as a child would: focus, then
// type the option's first letters.
func (p *page) choose(role, name, option string, scope ...chromedp.QueryOption) {
	p.t.Helper()
	sel := append([]chromedp.QueryOption{byRole(role, name)}, scope...)
	act(p, chromedp.SendKeys("", option, sel...), fmt.Sprintf("choose %q in %s %q", option, role, name))
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	for _, n := range p.axNow(ctx, role, name) {
		var value string
		if n.Value != nil && jsonv2.Unmarshal(n.Value.Value, &value) == nil && value == option {
			return
		}
	}
	p.failed()
	p.t.Fatalf("%s: %q is not chosen in %s %q", p.who, option, role, name)
}

func TestBrowserChildPlaysPrimedAgainstTheComputerOnAPhone(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	browser := startBrowser(t, chromium)

	ada := newPage(t, browser, "Ada", base, axe, 360)
	ada.open("/app/")
	versus := ada.within("form", "Play against the computer")
	ada.fill("textbox", "Your name", "Ada", versus)
	ada.choose("combobox", "Game", "Primed", versus)
	ada.click("button", "Play against the computer", versus)
	ada.waitUntil(30*time.Second, "the game page", func() bool {
		s := ada.status()
		return strings.HasPrefix(s, "Your turn") || strings.HasPrefix(s, "Waiting for")
	})
	act(ada, chromedp.WaitVisible("", byRole("heading", "Primed")), "the game's heading")
	act(ada, chromedp.WaitVisible("", byRole("image", "")), "the position's picture")

	// Her hand: seven cards, each a button named by its value; the ones she cannot play now say so.
	ada.waitUntil(30*time.Second, "Ada's hand", func() bool { return ada.has("list", "Your cards") })
	ctx, cancel := context.WithTimeout(ada.ctx, 10*time.Second)
	hand := ada.axNow(ctx, "button", "", "list", "Your cards")
	cancel()
	if len(hand) != 7 {
		t.Errorf("Ada's hand: %d cards", len(hand))
	}
	for _, card := range hand {
		if name := axName(card); !strings.HasPrefix(name, "Card ") {
			t.Errorf("a card named %q", name)
		}
	}
	ada.waitUntil(30*time.Second, "Ada's turn", func() bool { return strings.HasPrefix(ada.status(), "Your turn") })
	ada.audit("a Primed game")
	ada.screenshot("primed")

	// Her first turn: she taps a card that makes a prime, and it leaves her hand; when none does,
	// the moves offer a draw.
	ctx, cancel = context.WithTimeout(ada.ctx, 10*time.Second)
	if cards := playable(ada.axNow(ctx, "button", "", "list", "Your cards")); len(cards) == 0 {
		act(ada, chromedp.WaitVisible("", byRole("button", "Draw a card"), ada.within("list", "Moves")), "the draw")
	} else if err := ada.clickNow(ctx, cards[0]); err != nil {
		t.Fatalf("tapping %s: %v", axName(cards[0]), err)
	} else {
		ada.waitUntil(30*time.Second, axName(cards[0])+" played", func() bool {
			return len(ada.axNow(ada.ctx, "button", "", "list", "Your cards")) == 6
		})
	}
	cancel()

	// She plays to the end: a card from her hand when one makes a prime, else "Draw a card" from
	// the list of moves, and after a draw the card or "Keep the drawn card".
	playToTheEnd(t, 5*time.Minute, ada)
	act(ada, chromedp.WaitVisible("", byRole("button", "Rematch")), "the Rematch button")
	ada.audit("a Primed game's end")
	ada.screenshot("primed-end")

	// A rematch against the computer starts at once, Primed again.
	ada.click("button", "Rematch")
	ada.waitUntil(30*time.Second, "the rematch", func() bool {
		s := ada.status()
		return strings.HasPrefix(s, "Your turn") || strings.HasPrefix(s, "Waiting for")
	})
	act(ada, chromedp.WaitVisible("", byRole("heading", "Primed")), "the rematch's heading")
	ada.noConsoleErrors()
}

func TestBrowserTwoClassmatesPlayPrimed(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	browser := startBrowser(t, chromium)

	ada := newPage(t, browser, "Ada", base, axe, 1280)
	ada.open("/app/")
	open := ada.within("form", "Play with a classmate")
	ada.fill("textbox", "Your name", "Ada", open)
	ada.choose("combobox", "Game", "Primed", open)
	ada.click("button", "Open a game", open)
	code := strings.TrimSpace(ada.text("status", "Invite code"))

	bea := newPage(t, browser, "Bea", base, axe, 1280)
	bea.open("/app/")
	join := bea.within("form", "Join a game")
	bea.fill("textbox", "Invite code", code, join)
	bea.fill("textbox", "Your name", "Bea", join)
	bea.click("button", "Join", join)
	bea.waitUntil(30*time.Second, "the lobby", func() bool { return strings.HasPrefix(bea.status(), "Waiting for players") })

	ada.waitUntil(30*time.Second, "Bea in the lobby", func() bool { return ada.has("button", "Start the game") })
	ada.click("button", "Start the game")
	for _, p := range []*page{ada, bea} {
		p.waitUntil(30*time.Second, "the start", func() bool { return p.has("list", "Your cards") })
		act(p, chromedp.WaitVisible("", byRole("heading", "Primed")), "the game's heading")
	}
	bea.audit("a Primed game")
	ada.waitUntil(30*time.Second, "the Primed pile drawn", func() bool { return ada.has("image", "") })
	ada.screenshot("primed")
	playToTheEnd(t, 5*time.Minute, ada, bea)
	for _, p := range []*page{ada, bea} {
		act(p, chromedp.WaitVisible("", byRole("button", "Rematch")), "the Rematch button")
		p.audit("a Primed game's end")
		p.noConsoleErrors()
	}
}

// holdSeat puts a seat into the page's localStorage as the app keeps one (api.ts), the page being
// on the app's origin already.
func (p *page) holdSeat(gameID, token, name string) {
	p.t.Helper()
	seat, _ := json.Marshal(map[string]any{"gameId": gameID, "token": token, "name": name, "kind": "prime-climb", "savedAt": time.Now().UnixMilli()})
	act(p, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.setItem("primegames.seat." + %q, %q)`, gameID, seat)), "keep a seat")
}

// seatKept tells whether the page's localStorage still holds a seat of the game.
func (p *page) seatKept(gameID string) bool {
	p.t.Helper()
	return act(p, chromedp.Evaluate[bool](fmt.Sprintf(`localStorage.getItem("primegames.seat." + %q) !== null`, gameID)), "the seat kept")
}

// TestBrowserGamePageSaysWhenTheSeatEnds: when the seat's token stops working while the page is
// open (the stream's last message is `revoked`), and when a kept seat's game is not there any
// more, the page says so plainly, forgets the seat and offers the way back; it does not ask for
// a reload, nor go on asking with the dead token.
func TestBrowserGamePageSaysWhenTheSeatEnds(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	// Dee, signed in with her class card, and a game of hers against the computer.
	created := newClassroom(t, base, "Class 2A")
	call(t, http.MethodPost, base+"/v1/classrooms/join", "", `{"join_code":"`+created.Classroom.JoinCode+`","name":"Dee"}`, nil)
	codes := signInCodes(t, base, created)
	var signedIn struct {
		Token string `json:"token"`
	}
	call(t, http.MethodPost, base+"/v1/students/sign-in", "", `{"class_code":"`+created.Classroom.JoinCode+`","code":"`+codes.Items[0].Code+`"}`, &signedIn)
	call(t, http.MethodPost, base+"/v1/classrooms/"+created.Classroom.ID+"/games", created.TeacherToken, `{"game":"prime-climb","group_size":1,"bots":["greedy"]}`, nil)
	var dees struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	call(t, http.MethodGet, base+"/v1/me/games", signedIn.Token, "", &dees)
	if len(dees.Items) != 1 {
		t.Fatalf("Dee's games: %+v", dees)
	}
	game := dees.Items[0].ID
	browser := startBrowser(t, chromium)

	dee := newPage(t, browser, "Dee", base, axe, 360)
	dee.open("/app/")
	dee.holdSeat(game, signedIn.Token, "Dee")
	dee.open("/app/game/" + game)
	dee.waitUntil(30*time.Second, "Dee's turn", func() bool { return dee.has("button", "Roll") })
	// Dee rolls from another device: the page learns it from the game's stream alone, which is
	// then open.
	call(t, http.MethodPost, base+"/v1/games/"+game+"/actions", signedIn.Token, `{"type":"roll"}`, nil)
	dee.waitUntil(30*time.Second, "the roll through the stream", func() bool { return dee.has("list", "Moves") })

	// Dee signs out on that other device: the stream ends with `revoked` (token_revoked), and the
	// page says so in plain words, not a server's 401 nor "reload", and shows no move to make.
	call(t, http.MethodPost, base+"/v1/students/sign-out", signedIn.Token, "", nil)
	dee.waitUntil(30*time.Second, "the page saying Dee was signed out", func() bool {
		return dee.text("alert", "") == "You were signed out, so this game is closed on this device."
	})
	act(dee, chromedp.WaitVisible("", byRole("link", "Back to the start")), "the way back")
	if dee.seatKept(game) {
		t.Error("the page still keeps the seat whose token ended")
	}
	if dee.has("list", "Moves") || dee.has("button", "Hint") {
		t.Error("the page still offers moves with a token that ended")
	}
	dee.audit("a game page whose seat ended")
	dee.clearConsole() // requests refused with the ended token, if any raced the stream, are logged by the browser

	// A seat kept for a game that is not there (erased, or a token that no longer opens it): the
	// page says so and offers the way back, instead of "Live updates stopped … Reload the page".
	gone := "00000000-0000-4000-8000-000000000001"
	dee.holdSeat(gone, signedIn.Token, "Dee")
	dee.open("/app/game/" + gone)
	dee.waitUntil(30*time.Second, "the page saying the game is gone", func() bool {
		return dee.text("alert", "") == "This game is no longer there, or no longer open on this device."
	})
	dee.click("link", "Back to the start")
	act(dee, chromedp.WaitVisible("", byRole("heading", "Play Prime games")), "the landing page")
	if dee.seatKept(gone) {
		t.Error("the landing page still keeps the seat of a game that is gone")
	}
	if dee.has("link", "Prime Climb as Dee") {
		t.Error("the landing page still offers a game that is gone")
	}
	dee.clearConsole() // the refused reads (401, 404) are logged by the browser itself
}

// TestBrowserOneMoveIsOneAnnouncement: the game's live status line changes only when its sentence
// does, so a screen reader says each once: the answer to an action and the stream's event about
// the same action do not announce the same sentence twice.
func TestBrowserOneMoveIsOneAnnouncement(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
		Seats []struct {
			Token string `json:"token"`
			Name  string `json:"name"`
		} `json:"seats"`
	}
	call(t, http.MethodPost, base+"/v1/games", "", `{"game":"prime-climb","players":[{"name":"Ada"},{"name":"Bo"}]}`, &created)
	if len(created.Seats) != 2 {
		t.Fatalf("seats: %+v", created)
	}
	var state struct {
		Turn struct {
			ToAct []int `json:"to_act"`
		} `json:"turn"`
	}
	call(t, http.MethodGet, base+"/v1/games/"+created.Game.ID, created.Seats[0].Token, "", &state)
	if len(state.Turn.ToAct) != 1 {
		t.Fatalf("the turn: %+v", state)
	}
	first, other := created.Seats[state.Turn.ToAct[0]], created.Seats[1-state.Turn.ToAct[0]]
	browser := startBrowser(t, chromium)
	ada := newPage(t, browser, first.Name, base, axe, 360)
	ada.open("/app/")
	ada.holdSeat(created.Game.ID, first.Token, first.Name)
	ada.open("/app/game/" + created.Game.ID)
	ada.waitUntil(30*time.Second, "the first player's turn", func() bool { return ada.has("button", "Roll") })
	// Every change of the status line, as a screen reader hears it, from now on.
	act(ada, chromedp.Evaluate[chromedp.Void](`(() => {
		const line = document.querySelector("main [role=status]");
		window.said = [line.textContent];
		new MutationObserver(() => window.said.push(line.textContent)).observe(line, { childList: true, characterData: true, subtree: true });
	})()`), "watch the status line")
	ada.click("button", "Roll")
	ada.waitUntil(30*time.Second, "the moves", func() bool { return ada.has("list", "Moves") })
	// A move tapped: the page may be redrawing its moves (the stream's event for the roll), then
	// the tap is tried again at the page's next change.
	ada.waitUntil(30*time.Second, "a move made", func() bool {
		ctx, cancel := context.WithTimeout(ada.ctx, 10*time.Second)
		defer cancel()
		moves := playable(ada.axNow(ctx, "button", "", "list", "Moves"))
		return len(moves) > 0 && ada.clickNow(ctx, moves[0]) == nil
	})
	waiting := "Waiting for " + other.Name + "."
	ada.waitUntil(30*time.Second, "the other's turn", func() bool { return ada.status() == waiting })
	picture := func() string {
		return act(ada, chromedp.Evaluate[string](`document.querySelector("main img").alt`), "the picture's text")
	}
	before := picture()
	// Bo rolls from an app of his own: Ada's page learns it from the stream and draws it.
	call(t, http.MethodPost, base+"/v1/games/"+created.Game.ID+"/actions", other.Token, `{"type":"roll"}`, nil)
	ada.waitUntil(30*time.Second, "the other's roll drawn", func() bool { return picture() != before })
	said := act(ada, chromedp.Evaluate[[]string](`window.said`), "what the status line said")
	for i := 1; i < len(said); i++ {
		if said[i] == said[i-1] {
			t.Errorf("the status line said %q twice in a row: %q", said[i], said)
			break
		}
	}
	if len(said) == 0 || said[len(said)-1] != waiting {
		t.Errorf("the status line said %q", said)
	}
	ada.noConsoleErrors()
}

// TestBrowserClassroomPageSaysWhenItsTokenEnds: the classroom page follows the classroom's stream
// with the teacher's credential; when that credential ends (here a teacher token replaced through
// the API, as a sign-out in another tab ends a session), the stream's last message is `revoked`
// and the page says plainly that the teacher is not signed in, with the way to sign in, and
// forgets the token.
func TestBrowserClassroomPageSaysWhenItsTokenEnds(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	created := newClassroom(t, base, "Class 5C")
	var eve struct {
		Token string `json:"token"`
	}
	call(t, http.MethodPost, base+"/v1/classrooms/join", "", `{"join_code":"`+created.Classroom.JoinCode+`","name":"Eve"}`, &eve)
	call(t, http.MethodPost, base+"/v1/classrooms/"+created.Classroom.ID+"/games", created.TeacherToken, `{"game":"prime-climb","group_size":1,"bots":["greedy"]}`, nil)
	var eves struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	call(t, http.MethodGet, base+"/v1/me/games", eve.Token, "", &eves)
	if len(eves.Items) != 1 {
		t.Fatalf("Eve's games: %+v", eves)
	}
	browser := startBrowser(t, chromium)
	teacher := newPage(t, browser, "teacher", base, axe, 1280)
	teacher.open("/app/")
	// The token kept as an LTI hand-over keeps its account token (teacher.ts, sessionStorage).
	act(teacher, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem("primegames.teacher", %q)`, created.TeacherToken)), "keep the token")
	teacher.open("/app/teacher/classrooms/" + created.Classroom.ID)
	// The stream is open once a move made through the API draws Eve's game's live picture again.
	liveGames := teacher.within("list", "Live games")
	source := func() string {
		return act(teacher, chromedp.AttributeValue("", "src", byRole("image", ""), liveGames), "the live picture's address").Value
	}
	teacher.waitUntil(30*time.Second, "the live picture drawn", func() bool { return strings.HasPrefix(source(), "blob:") })
	first := source()
	// Eve rolls if she is to act; else the computer is (the first seat is drawn), and its own move
	// redraws the picture as well.
	roll, _ := http.NewRequest(http.MethodPost, base+"/v1/games/"+eves.Items[0].ID+"/actions", strings.NewReader(`{"type":"roll"}`))
	roll.Header.Set("Content-Type", "application/json")
	roll.Header.Set("Authorization", "Bearer "+eve.Token)
	if resp, err := http.DefaultClient.Do(roll); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusConflict {
		t.Fatalf("Eve's roll = %d", resp.StatusCode)
	}
	teacher.waitUntil(30*time.Second, "the live picture drawn again after a move", func() bool { return source() != first })

	// The teacher token is replaced (as signing out in another tab ends a session): the stream's
	// last message is revoked.
	call(t, http.MethodPost, base+"/v1/classrooms/"+created.Classroom.ID+"/teacher-token", created.TeacherToken, "", nil)
	teacher.waitUntil(30*time.Second, "the page saying so", func() bool { return strings.HasPrefix(teacher.statusNow(), "You are not signed in.") })
	act(teacher, chromedp.WaitVisible("", byRole("link", "Sign in as a teacher")), "the way to sign in")
	if kept := act(teacher, chromedp.Evaluate[bool](`sessionStorage.getItem("primegames.teacher") !== null`), "the token kept"); kept {
		t.Error("the page still keeps the ended token")
	}
	teacher.clearConsole()
}

// offline cuts the page's network (true) or gives it back (false): requests fail, as when the
// server cannot be reached, and navigator.onLine follows (the online event comes back with it).
func (p *page) offline(off bool) {
	p.t.Helper()
	act(p, func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		var rules []*network.Conditions
		if off {
			rules = append(rules, &network.Conditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		}
		if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: rules}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return chromedp.Void{}, err
	}, fmt.Sprintf("offline %v", off))
}

// alertNow is what the page's alerts say now (an empty alert is not in the accessibility tree):
// it does not wait.
func (p *page) alertNow() string {
	p.t.Helper()
	return act(p, chromedp.Evaluate[string](`[...document.querySelectorAll("[role=alert]")].map((e) => e.textContent).join(" ").trim()`), "the alerts")
}

// TestBrowserGamePageFollowsAgainAfterALostConnection: the server out of reach (the network cut)
// makes the game page say so once its stream has given up reconnecting, and the page follows the
// game again by itself once the network is back (the browser's online event): no reload. (A
// connection that stalls without breaking is the client package's to notice: not tested here.)
func TestBrowserGamePageFollowsAgainAfterALostConnection(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t)
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
		Seats []struct {
			Token string `json:"token"`
		} `json:"seats"`
	}
	call(t, http.MethodPost, base+"/v1/games", "", `{"game":"prime-climb","players":[{"name":"Fay"},{"bot":"greedy"}]}`, &created)
	if len(created.Seats) == 0 {
		t.Fatalf("seats: %+v", created)
	}
	browser := startBrowser(t, chromium)
	fay := newPage(t, browser, "Fay", base, axe, 360)
	fay.open("/app/")
	fay.holdSeat(created.Game.ID, created.Seats[0].Token, "Fay")
	fay.open("/app/") // the landing page lists the game kept on this device

	// The network goes, then Fay opens her game from the landing page (the app's own navigation, no
	// page load): nothing reaches the server. The client reconnects a few times (about 30 s of
	// backoff) before the page says so.
	fay.offline(true)
	fay.click("link", "Prime Climb as Fay")
	fay.waitUntil(2*time.Minute, "the page saying the connection was lost", func() bool {
		return fay.alertNow() == "The connection was lost. Trying again…"
	})
	fay.offline(false)
	fay.waitUntil(time.Minute, "the page following the game again", func() bool { return fay.alertNow() == "" })
	fay.click("button", "Roll")
	fay.waitUntil(30*time.Second, "the moves", func() bool { return fay.has("list", "Moves") })
	fay.clearConsole() // the requests that failed while offline are logged by the browser
}

// A classroom page whose stream the server refuses to open (here: the teacher's token holds as
// many streams as it may, 429) says that live updates are paused, rather than nothing, and keeps
// its credential: the refusal is not about it.
func TestBrowserClassroomPageSaysWhenItsStreamIsRefused(t *testing.T) {
	t.Parallel()
	chromium, axe := browserNeeds(t)
	base := startApp(t, "STREAM_LIMIT_PER_CLIENT", "1")
	created := newClassroom(t, base, "Class 5D")
	// Another program of the teacher's holds the one stream the token may.
	req, err := http.NewRequest(http.MethodGet, base+"/v1/classrooms/"+created.Classroom.ID+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+created.TeacherToken)
	req.Header.Set("Accept", "application/x-ndjson")
	held, err := http.DefaultClient.Do(req)
	if err != nil || held.StatusCode != http.StatusOK {
		t.Fatalf("the first stream: %v %v", held, err)
	}
	t.Cleanup(func() { held.Body.Close() })

	browser := startBrowser(t, chromium)
	teacher := newPage(t, browser, "teacher", base, axe, 1280)
	teacher.open("/app/")
	act(teacher, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem("primegames.teacher", %q)`, created.TeacherToken)), "keep the token")
	teacher.open("/app/teacher/classrooms/" + created.Classroom.ID)
	teacher.waitUntil(30*time.Second, "the page saying so", func() bool {
		return strings.HasPrefix(teacher.statusNow(), "Live updates paused")
	})
	if kept := act(teacher, chromedp.Evaluate[bool](`sessionStorage.getItem("primegames.teacher") !== null`), "the token kept"); !kept {
		t.Error("the page forgot a token the refusal was not about")
	}
	teacher.audit("a classroom whose stream is paused")
	teacher.clearConsole() // the refused stream is logged by the browser
}
