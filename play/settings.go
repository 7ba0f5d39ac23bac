package play

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"primegames/domain"
)

// Settings are the options every kind of game shares, which the service itself keeps: a client
// sends them in the same options object as the engine's own, and views show them there.
type Settings struct {
	// BotDelay is how long a computer player waits before it acts, so that the players see its
	// moves arrive.
	BotDelay time.Duration
	// Hints says whether the players may ask for the expert's suggested action.
	Hints bool
	// TurnTime is how long a person to act has before the server acts for them (G-4); 0 is no clock.
	TurnTime time.Duration
}

// DefaultSettings are the settings of a game whose options name none.
var DefaultSettings = Settings{BotDelay: 800 * time.Millisecond, Hints: true}

// MaxBotDelay is the longest bot_delay_ms allowed.
const MaxBotDelay = time.Minute

// The bounds of turn_seconds: the shortest lets tests run real clocks in seconds.
const (
	MinTurnTime = 3 * time.Second
	MaxTurnTime = 7 * 24 * time.Hour
)

// settingsFields are the names of the shared options in a game's options object.
const (
	botDelayField = "bot_delay_ms"
	hintsField    = "hints"
	turnField     = "turn_seconds"
)

// splitSettings takes the shared options out of raw, a game's options as the client sent them,
// and returns the rest for the engine to validate. Options that are not an object go to the engine
// untouched, which refuses them in its own words.
func splitSettings(raw json.RawMessage) (engine json.RawMessage, settings Settings, err error) {
	settings = DefaultSettings
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return raw, settings, nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(trimmed, &fields) != nil {
		return raw, settings, nil
	}
	delay, hasDelay := fields[botDelayField]
	hints, hasHints := fields[hintsField]
	turn, hasTurn := fields[turnField]
	if !hasDelay && !hasHints && !hasTurn {
		return raw, settings, nil
	}
	if hasDelay {
		var ms int64
		if json.Unmarshal(delay, &ms) != nil || ms < 0 || ms > MaxBotDelay.Milliseconds() {
			return nil, settings, domain.Invalid("invalid_options",
				"option %q must be a whole number of milliseconds from 0 to %d, not %s.", botDelayField, MaxBotDelay.Milliseconds(), delay)
		}
		settings.BotDelay = time.Duration(ms) * time.Millisecond
		delete(fields, botDelayField)
	}
	if hasHints {
		if json.Unmarshal(hints, &settings.Hints) != nil {
			return nil, settings, domain.Invalid("invalid_options", "option %q must be true or false, not %s.", hintsField, hints)
		}
		delete(fields, hintsField)
	}
	if hasTurn {
		var secs int64
		if json.Unmarshal(turn, &secs) != nil || secs < int64(MinTurnTime.Seconds()) || secs > int64(MaxTurnTime.Seconds()) {
			return nil, settings, domain.Invalid("invalid_options",
				"option %q must be a whole number of seconds from %d to %d, not %s.", turnField, int64(MinTurnTime.Seconds()), int64(MaxTurnTime.Seconds()), turn)
		}
		settings.TurnTime = time.Duration(secs) * time.Second
		delete(fields, turnField)
	}
	engine, err = json.Marshal(fields)
	return engine, settings, err
}

// CheckSettings explains what is wrong with the shared options among a game's options; nil when
// nothing is.
func CheckSettings(options json.RawMessage) error {
	_, _, err := splitSettings(options)
	return err
}

// OptionsView is the game's canonical options as views show them: the engine's with the shared
// settings added. The result is shared: callers must not change it.
func (g *GameRecord) OptionsView() (json.RawMessage, error) {
	key := optionsViewKey{options: string(g.Options), settings: g.Settings}
	if view, ok := optionsViews.Load(key); ok {
		return view.(json.RawMessage), nil
	}
	view, err := g.optionsView()
	if err == nil && optionsViewsKept.Add(1) <= maxOptionsViews {
		optionsViews.Store(key, view)
	}
	return view, err
}

// optionsViews remembers OptionsView's answers, as a few sets of options serve most games and each
// answer takes a parse, a map and a sorted encoding; up to maxOptionsViews of them, as options come
// from clients.
var (
	optionsViews     sync.Map // optionsViewKey → json.RawMessage
	optionsViewsKept atomic.Int64
)

const maxOptionsViews = 1024

type optionsViewKey struct {
	options  string
	settings Settings
}

func (g *GameRecord) optionsView() (json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(g.Options, &fields); err != nil {
		return nil, err
	}
	fields[botDelayField] = json.RawMessage(strconv.FormatInt(g.Settings.BotDelay.Milliseconds(), 10))
	fields[hintsField] = json.RawMessage(strconv.FormatBool(g.Settings.Hints))
	if g.Settings.TurnTime > 0 {
		fields[turnField] = json.RawMessage(strconv.FormatInt(int64(g.Settings.TurnTime.Seconds()), 10))
	}
	return json.Marshal(fields)
}
