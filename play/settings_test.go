package play_test

import (
	"encoding/json"
	"testing"
	"time"

	"primegames/play"
)

// OptionsView remembers its answers by options and settings together: a game whose settings
// differ from another's with the same options shows its own.
func TestOptionsViewShowsEachGamesOwnSettings(t *testing.T) {
	t.Parallel()
	options := json.RawMessage(`{"rounds": 2, "deck": "standard"}`)
	quick := play.GameRecord{Options: options, Settings: play.Settings{BotDelay: 100 * time.Millisecond, Hints: true}}
	clocked := play.GameRecord{Options: options, Settings: play.Settings{BotDelay: 100 * time.Millisecond, TurnTime: 30 * time.Second}}
	for range 2 { // the second time from what was remembered
		for _, c := range []struct {
			g    play.GameRecord
			want string
		}{
			{quick, `{"bot_delay_ms":100,"deck":"standard","hints":true,"rounds":2}`},
			{clocked, `{"bot_delay_ms":100,"deck":"standard","hints":false,"rounds":2,"turn_seconds":30}`},
		} {
			view, err := c.g.OptionsView()
			if err != nil || string(view) != c.want {
				t.Fatalf("OptionsView = %s, %v; want %s", view, err, c.want)
			}
		}
	}
}
