package api

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"primegames/play"
)

// A player's stream (GET /v1/me/events) interleaves many games whose entries commit in any order,
// so no single entry can say where the stream stood. Each event's id says it all instead:
//
//	1:<floor, Unix ms>;<game id>:<seq>:<event>;<game id>:<seq>:<event>…
//
// Per game, every event up to (seq, event) has been sent (event is the play.PlayerEvent's rank
// within the entry; play.YourTurn means all of entry seq, play.GameEnded all of the game). A game
// of the player's that the id leaves out is one whose last event was sent (or that was over when
// the stream learned of it) if the player's seat was taken no later than floor, and one the
// stream had not learned of yet otherwise. That holds because the stream lists all the player's
// games and sets floor a resume window before the listing: a seat taken earlier than that has
// been committed by then, as the classroom stream's window also assumes.

// playerEventIDVersion begins every id, so that a later form can be told apart.
const playerEventIDVersion = "1"

// gamePosition is where a player's stream stands in one game.
type gamePosition struct {
	seq   int64
	event play.PlayerEvent
}

func (p gamePosition) done() bool { return p.event == play.GameEnded }

// playerStreamPosition is where a player's stream stands: its floor and, per game, its position.
type playerStreamPosition struct {
	floor time.Time
	games map[string]gamePosition
}

// formatPlayerEventID writes the id of an event sent at position p, where joinedAt tells when the
// player took the seat of each game p knows.
func formatPlayerEventID(floor time.Time, games map[string]gamePosition, joinedAt map[string]time.Time) string {
	var b strings.Builder
	b.WriteString(playerEventIDVersion + ":" + strconv.FormatInt(floor.UnixMilli(), 10))
	ids := make([]string, 0, len(games))
	for id, pos := range games {
		if !pos.done() || joinedAt[id].After(floor) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		pos := games[id]
		b.WriteString(";" + id + ":" + strconv.FormatInt(pos.seq, 10) + ":" + strconv.Itoa(int(pos.event)))
	}
	return b.String()
}

// parsePlayerEventID reads an id that formatPlayerEventID wrote; nil for anything else.
func parsePlayerEventID(v string) *playerStreamPosition {
	parts := strings.Split(strings.TrimSpace(v), ";")
	version, floorText, ok := strings.Cut(parts[0], ":")
	if !ok || version != playerEventIDVersion {
		return nil
	}
	floor, err := strconv.ParseInt(floorText, 10, 64)
	if err != nil {
		return nil
	}
	p := &playerStreamPosition{floor: time.UnixMilli(floor), games: map[string]gamePosition{}}
	for _, part := range parts[1:] {
		fields := strings.Split(part, ":")
		if len(fields) != 3 {
			return nil
		}
		if id, err := uuid.Parse(fields[0]); err != nil || id.String() != fields[0] {
			return nil
		}
		seq, err := strconv.ParseInt(fields[1], 10, 64)
		event, err2 := strconv.Atoi(fields[2])
		if err != nil || err2 != nil || seq < -1 || event < int(play.GameStarted) || event > int(play.GameEnded) {
			return nil
		}
		p.games[fields[0]] = gamePosition{seq: seq, event: play.PlayerEvent(event)}
	}
	return p
}
