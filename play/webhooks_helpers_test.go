package play_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/outbound"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// A webhook rig: a database, a game master on a clock the test moves, sending through the real
// outbound client (allowed to reach 127.0.0.1 only because its config says so) to a real HTTP
// receiver whose answers the test decides.

// testWebhookConfig retries soon (the clock is moved past each retry anyway), gives up after 4
// attempts, and holds a lease for 30 s of the clock.
var testWebhookConfig = play.WebhookConfig{Quota: 3, SealingKey: []byte("test sealing key"), SecretOverlap: time.Hour, Attempts: 4, FirstRetry: time.Second, MaxRetry: 8 * time.Second,
	Lease: 30 * time.Second, Batch: 16, Concurrency: 4, Poll: 20 * time.Millisecond}

// received is one request the receiver got.
type received struct {
	ID, Timestamp, Signature string
	Body                     []byte
}

// receiver is an HTTP server that records each request and answers as answer says.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	answer func(n int, w http.ResponseWriter, r *http.Request) // n: how many requests came before
	calls  chan received
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	rc := &receiver{answer: answer, calls: make(chan received, 1000)}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got := received{ID: r.Header.Get("webhook-id"), Timestamp: r.Header.Get("webhook-timestamp"), Signature: r.Header.Get("webhook-signature"), Body: body}
		rc.mu.Lock()
		n := len(rc.got)
		rc.got = append(rc.got, got)
		rc.mu.Unlock()
		rc.calls <- got
		if rc.answer != nil {
			rc.answer(n, w, r)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

type hookRig struct {
	t      *testing.T
	db     *repo.DB
	master *play.Service
	clock  *playclock.Clock
}

func newHookRig(t *testing.T) *hookRig {
	t.Helper()
	db := repotest.NewDB(t)
	return rigOn(t, db, playclock.New(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)))
}

// rigOn is another instance's game master over the same database and clock.
func rigOn(t *testing.T, db *repo.DB, clock *playclock.Clock) *hookRig {
	t.Helper()
	r := &hookRig{t: t, db: db, clock: clock}
	r.configure(testWebhookConfig, r.sender())
	return r
}

// configure makes the rig's game master anew, with cfg and sender.
func (r *hookRig) configure(cfg play.WebhookConfig, sender play.WebhookSender) {
	r.master = play.New(r.db.Games().Stores(), games.All(), play.WithClock(r.clock), play.WithWebhooks(cfg, sender))
}

// sender is the real outbound client, allowed to reach 127.0.0.1.
func (r *hookRig) sender() play.WebhookSender {
	r.t.Helper()
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: 300 * time.Millisecond})
	if err != nil {
		r.t.Fatal(err)
	}
	return sender
}

// lobby is a Primed lobby of two seats with its creator's principal.
func (r *hookRig) lobby() (*play.Created, play.Principal) {
	r.t.Helper()
	created, err := r.master.Create(context.Background(), play.NewGame{Kind: "primed", OpenSeats: 2}, play.Nobody, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return created, play.IdentifyToken(created.CreatorToken, "")
}

// fill seats Ada and Bo and starts the game; it returns the seats' principals.
func (r *hookRig) fill(created *play.Created, creator play.Principal) []play.Principal {
	r.t.Helper()
	ctx := context.Background()
	var seats []play.Principal
	for _, name := range []string{"Ada", "Bo"} {
		joined, err := r.master.Join(ctx, created.Game.ID, play.Nobody, play.JoinAsk{Name: name, InviteCode: created.InviteCode}, nil)
		if err != nil {
			r.t.Fatal(err)
		}
		seats = append(seats, play.IdentifyToken(joined.Seat.Token, ""))
	}
	if _, _, err := r.master.Start(ctx, created.Game.ID, creator, nil); err != nil {
		r.t.Fatal(err)
	}
	return seats
}

// move plays the first legal action of the seat to act.
func (r *hookRig) move(gameID string, seats []play.Principal) {
	r.t.Helper()
	ctx := context.Background()
	g, err := r.master.Load(ctx, gameID)
	if err != nil {
		r.t.Fatal(err)
	}
	seat := g.State.Status().ToAct[0]
	all, err := json.Marshal(g.State.LegalActions(seat))
	if err != nil {
		r.t.Fatal(err)
	}
	var actions []struct{ Action json.RawMessage }
	if err := json.Unmarshal(all, &actions); err != nil || len(actions) == 0 {
		r.t.Fatalf("legal actions %s: %v", all, err)
	}
	if _, err := r.master.Act(ctx, play.Action{GameID: gameID, Action: actions[0].Action}, seats[seat], nil); err != nil {
		r.t.Fatal(err)
	}
}

// subscribe subscribes p's backend at url to the scope's events.
func (r *hookRig) subscribe(p play.Principal, req play.NewWebhookRequest) (*play.Webhook, string) {
	r.t.Helper()
	w, secret, err := r.master.CreateWebhook(context.Background(), p, req)
	if err != nil {
		r.t.Fatal(err)
	}
	return w, secret
}

// drain runs worker passes until one finds nothing to do.
func (r *hookRig) drain() {
	r.t.Helper()
	for range 100 {
		worked, err := r.master.WebhookPass(context.Background())
		if err != nil {
			r.t.Fatal(err)
		}
		if !worked {
			return
		}
	}
	r.t.Fatal("the webhook worker keeps finding work")
}

// count is a count(*) query's answer.
func (r *hookRig) count(sql string, args ...any) int {
	r.t.Helper()
	var n int
	if err := r.db.Pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		r.t.Fatal(err)
	}
	return n
}

// subscription reads p's subscription id as the API lists it.
func (r *hookRig) subscription(p play.Principal, id string) play.Webhook {
	r.t.Helper()
	list, err := r.master.Webhooks(context.Background(), p)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, w := range list {
		if w.ID == id {
			return w
		}
	}
	r.t.Fatalf("subscription %s is not listed", id)
	return play.Webhook{}
}

// verifySignature is a receiver's check of a Standard Webhooks signature, written from the
// standard, independently of the sender's code.
func verifySignature(secret string, got received) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(got.ID + "." + got.Timestamp + "." + string(got.Body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(got.Signature) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

// payload is a webhook body as a receiver reads it.
type payload struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      struct {
		Event  string `json:"event"`
		GameID string `json:"game_id"`
		Seat   *int   `json:"seat"`
		Seq    int64  `json:"seq"`
		Status string `json:"status"`
	} `json:"data"`
}

func decodePayload(t *testing.T, got received) payload {
	t.Helper()
	var p payload
	if err := json.Unmarshal(got.Body, &p); err != nil {
		t.Fatalf("webhook body %s: %v", got.Body, err)
	}
	return p
}
