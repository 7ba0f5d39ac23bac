package api

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

// gameBody is a game as the caller may see it.
func gameBody(g *play.Game, caller play.Caller) (openapi.Game, error) {
	options, err := g.OptionsView()
	if err != nil {
		return openapi.Game{}, err
	}
	body := openapi.Game{Game: openapi.GameKind(g.Kind), Options: options}
	body.GameBase = openapi.GameBase{
		Id:         mustUUID(g.ID),
		Status:     openapi.GameStatus(g.Status),
		SeatCount:  g.SeatCount,
		Seats:      make([]openapi.Seat, len(g.Seats)),
		Version:    g.Version,
		You:        openapi.Caller{Creator: caller.Creator, Teacher: caller.Teacher},
		Winners:    orEmpty(g.Winners),
		CreatedAt:  g.CreatedAt,
		UpdatedAt:  g.UpdatedAt,
		FinishedAt: g.FinishedAt,
		EndReason:  endReason(g.EndReason),
	}
	if caller.HasSeat() {
		body.You.Seat = ptr(caller.Seat)
	}
	if g.RematchID != nil {
		body.Rematch = ptr(mustUUID(*g.RematchID))
	}
	for i, s := range g.Seats {
		body.Seats[i] = openapi.Seat{Seat: s.Seat, Name: s.Name, JoinedAt: s.JoinedAt, Bot: botLevel(s.Bot)}
		if s.StudentID != nil {
			body.Seats[i].StudentId = ptr(mustUUID(*s.StudentID))
		}
	}
	if g.State != nil {
		view, err := marshalEngine(g.State.View(play.ViewerFor(g.Status, caller)))
		if err != nil {
			return body, err
		}
		body.State = view
		if g.Status == play.StatusActive {
			st := g.State.Status()
			body.Turn = &openapi.Turn{Phase: st.Phase, ToAct: orEmpty(st.ToAct), Deadline: g.TurnDeadline}
		}
	}
	return body, nil
}

// entryBody is one history entry, redacted for viewer.
func entryBody(g *play.Game, e play.Entry, viewer domain.Viewer) (body openapi.HistoryEntry, err error) {
	return entryBodyOf(g, e, nil, viewer)
}

// entryBodyOf is entryBody given the entry's outcome as the rules gave it, when it is at hand (nil
// when not), which spares decoding its JSON.
func entryBodyOf(g *play.Game, e play.Entry, outcome domain.Outcome, viewer domain.Viewer) (body openapi.HistoryEntry, err error) {
	body = openapi.HistoryEntry{Game: openapi.GameKind(g.Kind), Action: e.Action}
	body.HistoryEntryBase = openapi.HistoryEntryBase{Seq: e.Seq, Seat: e.Seat, CreatedAt: e.CreatedAt}
	body.Bot = botLevel(e.Bot)
	if e.Timeout {
		body.Timeout = ptr(true)
	}
	if e.Service {
		body.Outcome = e.Outcome // the service's own outcome (a resignation) hides nothing
	} else if outcome != nil {
		if body.Outcome, err = marshalEngine(outcome.Redact(viewer)); err != nil {
			return body, err
		}
	} else if body.Outcome, err = redactedOutcome(g, e, viewer); err != nil {
		return body, err
	}
	if viewer.Role == domain.RoleFull {
		// The random values reveal the order of shuffled decks: only a full view may see them.
		body.Random = ptr(e.Random)
	}
	return body, nil
}

func redactedOutcome(g *play.Game, e play.Entry, viewer domain.Viewer) (json.RawMessage, error) {
	outcome, err := g.Rules.DecodeOutcome(e.Outcome)
	if err != nil {
		return nil, err
	}
	return marshalEngine(outcome.Redact(viewer))
}

// endReason is why a game was aborted as the contract says it, nil for a game not aborted.
func endReason(reason play.EndReason) *openapi.EndReason {
	if reason == "" {
		return nil
	}
	return ptr(openapi.EndReason(reason))
}

// botLevel is a seat's computer player level as the contract marks it, nil for a person.
func botLevel(level domain.Level) *openapi.BotLevel {
	if level == "" {
		return nil
	}
	return ptr(openapi.BotLevel(level))
}

func etag(version int64) string { return `"` + strconv.FormatInt(version, 10) + `"` }

// parseETag reads a version from an If-Match or If-None-Match value: "7", W/"7" or 7.
func parseETag(v string) (int64, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
	n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 64)
	return n, err == nil && n >= 0
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// mustUUID parses an ID that Postgres generated, which is always well formed.
func mustUUID(id string) uuid.UUID { return uuid.MustParse(id) }
