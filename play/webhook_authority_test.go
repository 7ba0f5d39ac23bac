package play_test

import (
	"context"
	"testing"

	"primegames/domain"
	"primegames/play"
)

// A subscription belongs to the principal and delivers only while its holder's authority holds,
// checked when its events are queued and again right before each is sent: after a teacher token's
// rotation or a student token's reissue, a student's removal, a seat's leaving, not one more
// delivery goes out, queued before or not.

// classroomRig is a classroom of two students with one game of them under way.
type classroomRig struct {
	*hookRig
	roomID       string
	teacher      play.Principal
	studentIDs   []string
	students     []play.Principal // by student
	gameID       string
	seats        []play.Principal // by seat
	teacherToken string
}

func newClassroomRig(t *testing.T) *classroomRig {
	t.Helper()
	r := &classroomRig{hookRig: newHookRig(t)}
	ctx := context.Background()
	room, teacherToken, err := r.master.CreateClassroom(ctx, "Room 7")
	if err != nil {
		t.Fatal(err)
	}
	r.roomID, r.teacher, r.teacherToken = room.ID, r.resolve(teacherToken), teacherToken
	for _, name := range []string{"Ada", "Bo"} {
		st, _, token, err := r.master.JoinClassroom(ctx, room.JoinCode, name)
		if err != nil {
			t.Fatal(err)
		}
		r.studentIDs = append(r.studentIDs, st.ID)
		r.students = append(r.students, r.resolve(token))
	}
	games, err := r.master.CreateGroups(ctx, play.GroupGames{ClassroomID: room.ID, Kind: "primed", GroupSize: 2, Students: r.studentIDs})
	if err != nil || len(games) != 1 {
		t.Fatalf("groups: %v", err)
	}
	r.gameID = games[0].ID
	r.seats = make([]play.Principal, 2)
	for _, p := range r.students {
		_, caller, err := r.master.Get(ctx, r.gameID, p)
		if err != nil || !caller.HasSeat() {
			t.Fatalf("a student's seat: %+v, %v", caller, err)
		}
		r.seats[caller.Seat] = p
	}
	return r
}

func (r *hookRig) resolve(token string) play.Principal {
	r.t.Helper()
	p, err := r.master.Resolve(context.Background(), play.IdentifyToken(token, ""))
	if err != nil {
		r.t.Fatal(err)
	}
	return p
}

// queue fans out the outbox without sending anything: the deliveries wait.
func (r *hookRig) queue() {
	r.t.Helper()
	for {
		found, err := r.master.FanOutWebhooks(context.Background())
		if err != nil {
			r.t.Fatal(err)
		}
		if !found {
			return
		}
	}
}

// A teacher token rotated: the subscriptions it made stop delivering at once (what was queued
// included), the old token gets 401, the new one lists them suspended and may resume them, after
// which they deliver again, or delete them.
func TestWebhooksOfARotatedTeacherTokenAreSuspendedAtOnce(t *testing.T) {
	t.Parallel()
	r := newClassroomRig(t)
	ctx := context.Background()
	rc := newReceiver(t, nil)
	hook, _ := r.subscribe(r.teacher, play.NewWebhookRequest{Scope: play.ScopeClassroom, ClassroomID: r.roomID, URL: rc.URL, Events: []string{"entry"}})
	other, _ := r.subscribe(r.teacher, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: r.gameID, URL: rc.URL + "/game", Events: []string{"entry"}})
	r.move(r.gameID, r.seats)
	r.queue()
	if n := r.count(`SELECT count(*) FROM webhook_deliveries`); n != 2 {
		t.Fatalf("%d deliveries queued, want 2", n)
	}
	newToken, err := r.master.RotateTeacherToken(ctx, r.teacher, r.roomID, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.move(r.gameID, r.seats)
	r.drain()
	if got := rc.requests(); len(got) != 0 {
		t.Fatalf("%d deliveries after the teacher token was rotated", len(got))
	}
	old := r.resolve(r.teacherToken) // as a request with the old token finds it now
	if _, err := r.master.Webhooks(ctx, old); domain.ErrorCode(err) != "unauthorized" {
		t.Fatalf("the old token lists its subscriptions: %v", err)
	}
	if err := r.master.DeleteWebhook(ctx, old, hook.ID); domain.ErrorCode(err) != "unauthorized" {
		t.Fatalf("the old token deletes: %v", err)
	}
	teacher := r.resolve(newToken)
	if w := r.subscription(teacher, hook.ID); w.Status != play.WebhookSuspended {
		t.Fatalf("the new token lists it %s, want suspended", w.Status)
	}
	if err := r.master.DeleteWebhook(ctx, teacher, other.ID); err != nil {
		t.Fatalf("the new token deletes a suspended subscription: %v", err)
	}
	w, err := r.master.ResumeWebhook(ctx, teacher, hook.ID)
	if err != nil || w.Status != play.WebhookActive {
		t.Fatalf("resume: %+v, %v", w, err)
	}
	r.move(r.gameID, r.seats)
	r.drain()
	got := rc.requests()
	if len(got) != 1 || decodePayload(t, got[0]).Data.Seq != 3 {
		t.Fatalf("after resuming, %d deliveries (want the third entry only)", len(got))
	}
}

// A student token reissued suspends the student's subscriptions as a teacher's rotation does; a
// student removed ends them: nothing queued for them goes out, and nobody lists them.
func TestWebhooksOfAReissuedOrRemovedStudentStop(t *testing.T) {
	t.Parallel()
	r := newClassroomRig(t)
	ctx := context.Background()
	rc := newReceiver(t, nil)
	ada, bo := r.students[0], r.students[1]
	adaHook, _ := r.subscribe(ada, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: r.gameID, URL: rc.URL + "/ada", Events: []string{"entry", "game_ended"}})
	r.subscribe(bo, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: r.gameID, URL: rc.URL + "/bo", Events: []string{"entry", "game_ended"}})
	r.move(r.gameID, r.seats)
	r.queue()
	issued, err := r.master.ReissueStudentToken(ctx, r.teacher, r.roomID, r.studentIDs[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.master.RemoveStudent(ctx, r.roomID, r.studentIDs[1]); err != nil {
		t.Fatal(err)
	}
	// Something new after both: the teacher aborts the game, which ends it for every seat.
	if _, _, err := r.master.Abort(ctx, r.gameID, r.teacher, nil); err != nil {
		t.Fatal(err)
	}
	r.drain()
	if got := rc.requests(); len(got) != 0 {
		t.Fatalf("%d deliveries after the reissue and the removal", len(got))
	}
	if n := r.count(`SELECT count(*) FROM webhook_subscriptions WHERE owner_key = $1`, "student:"+r.studentIDs[1]); n != 0 {
		t.Fatalf("the removed student's subscription is still kept (%d)", n)
	}
	if w := r.subscription(r.resolve(issued.Token), adaHook.ID); w.Status != play.WebhookSuspended {
		t.Fatalf("the reissued token lists it %s", w.Status)
	}
}

// A seat that left a lobby: its subscription ends, and the player events of its seat number never
// reach it once another child holds the seat; a seat that moved down when the one before it left
// keeps its subscription, for its new seat.
func TestWebhookOfASeatThatLeftEndsAndItsSeatsEventsGoToNobodyElse(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	created, creator := r.lobby()
	id := created.Game.ID
	var seats []play.Principal
	for _, name := range []string{"Ada", "Bo"} {
		joined, err := r.master.Join(ctx, id, play.Nobody, play.JoinAsk{Name: name, InviteCode: created.InviteCode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, play.IdentifyToken(joined.Seat.Token, ""))
	}
	left, stayed := newReceiver(t, nil), newReceiver(t, nil)
	adaHook, _ := r.subscribe(seats[0], play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: left.URL, Events: []string{"your_turn", "game_started"}})
	boHook, _ := r.subscribe(seats[1], play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: stayed.URL, Events: []string{"your_turn", "game_started"}})
	if *adaHook.Seat != 0 || *boHook.Seat != 1 {
		t.Fatalf("seats %d, %d", *adaHook.Seat, *boHook.Seat)
	}
	if _, _, err := r.master.Leave(ctx, id, seats[0], nil); err != nil {
		t.Fatal(err)
	}
	joined, err := r.master.Join(ctx, id, play.Nobody, play.JoinAsk{Name: "Cy", InviteCode: created.InviteCode}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.master.Start(ctx, id, creator, nil); err != nil {
		t.Fatal(err)
	}
	bySeat := []play.Principal{seats[1], play.IdentifyToken(joined.Seat.Token, "")} // Bo moved down to seat 0
	for range 4 {
		r.move(id, bySeat)
	}
	r.drain()
	if got := left.requests(); len(got) != 0 {
		t.Fatalf("the seat that left got %d deliveries, the first %s", len(got), got[0].Body)
	}
	got := stayed.requests()
	if len(got) == 0 {
		t.Fatal("the seat that stayed got nothing")
	}
	for _, g := range got {
		if p := decodePayload(t, g); p.Data.Seat == nil || *p.Data.Seat != 0 {
			t.Fatalf("Bo, now seat 0, got %s", g.Body)
		}
	}
	if list, err := r.master.Webhooks(ctx, seats[0]); err != nil || len(list) != 0 {
		t.Fatalf("the left seat's token lists %d subscriptions (%v)", len(list), err)
	}
	if n := r.count(`SELECT count(*) FROM webhook_subscriptions WHERE id = $1`, adaHook.ID); n != 0 {
		t.Fatal("the left seat's subscription is still kept")
	}
}

// A seat that leaves after its events were queued (a game's end, resigned) gets none of them.
func TestWebhookQueuedBeforeTheSeatLeftIsNotSent(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	rc := newReceiver(t, nil)
	created, creator := r.lobby()
	id := created.Game.ID
	joined, err := r.master.Join(ctx, id, play.Nobody, play.JoinAsk{Name: "Ada", InviteCode: created.InviteCode}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ada := play.IdentifyToken(joined.Seat.Token, "")
	r.subscribe(ada, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: rc.URL})
	// The creator aborts the lobby, which queues its end for every seat.
	if _, _, err := r.master.Abort(ctx, id, creator, nil); err != nil {
		t.Fatal(err)
	}
	r.queue()
	queued := r.count(`SELECT count(*) FROM webhook_deliveries`)
	if queued == 0 {
		t.Fatal("nothing queued")
	}
	if _, err := r.db.Pool.Exec(ctx, `UPDATE seats SET token_hash = '\x00' WHERE game_id = $1 AND seat = 0`, id); err != nil {
		t.Fatal(err) // the seat is held by another token from now on
	}
	r.drain()
	if got := rc.requests(); len(got) != 0 {
		t.Fatalf("%d of %d deliveries queued before the seat changed hands went out", len(got), queued)
	}
}

// An observer token cannot subscribe, so no subscription outlives an observer's revocation.
func TestWebhookObserversCannotSubscribe(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	created, creator := r.lobby()
	issued, err := r.master.MintObserver(ctx, creator, play.ObserverTarget{GameID: created.Game.ID}, 0)
	if err != nil {
		t.Fatal(err)
	}
	observer := r.resolve(issued.Token)
	_, _, err = r.master.CreateWebhook(ctx, observer, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID, URL: "http://127.0.0.1:9/hook"})
	if domain.ErrorCode(err) != "forbidden" {
		t.Fatalf("an observer subscribes: %v", err)
	}
}

// Across instances: a student token reissued on one instance stops what another instance's worker
// had queued, with no message between them (the standing is read from the database).
func TestWebhookAuthorityEndedOnOneInstanceHoldsOnAnother(t *testing.T) {
	t.Parallel()
	a := newClassroomRig(t)
	b := rigOn(t, a.db, a.clock)
	ctx := context.Background()
	rc := newReceiver(t, nil)
	a.subscribe(a.students[0], play.NewWebhookRequest{Scope: play.ScopeGame, GameID: a.gameID, URL: rc.URL, Events: []string{"entry"}})
	a.move(a.gameID, a.seats)
	a.queue()
	if _, err := b.master.ReissueStudentToken(ctx, a.teacher, a.roomID, a.studentIDs[0], nil); err != nil {
		t.Fatal(err)
	}
	a.drain()
	if got := rc.requests(); len(got) != 0 {
		t.Fatalf("instance A sent %d deliveries after instance B reissued the token", len(got))
	}
}
