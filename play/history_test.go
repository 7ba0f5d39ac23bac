package play_test

import (
	"testing"

	"primegames/play"
)

// An event's status comes from its entry: only the entry that produced a finished game's last
// version finished it; an aborted game's entries all left it active.
func TestStatusAfterEntry(t *testing.T) {
	t.Parallel()
	game := func(status play.Status, version int64) *play.Game {
		return &play.Game{GameRecord: play.GameRecord{Status: status, Version: version}}
	}
	for _, tc := range []struct {
		game    *play.Game
		version int64
		want    play.Status
	}{
		{game(play.StatusFinished, 9), 9, play.StatusFinished},
		{game(play.StatusFinished, 9), 8, play.StatusActive},
		{game(play.StatusActive, 9), 9, play.StatusActive},
		{game(play.StatusAborted, 9), 8, play.StatusActive},
	} {
		if got := tc.game.StatusAfter(play.Entry{Version: tc.version}); got != tc.want {
			t.Errorf("%s game at version %d: entry of version %d left it %s, want %s", tc.game.Status, tc.game.Version, tc.version, got, tc.want)
		}
	}
}
