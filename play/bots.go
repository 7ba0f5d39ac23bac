package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"primegames/domain"
	"primegames/domain/names"
	"primegames/domain/players"
)

// A computer player's choices are drawn from the game's secret seed and the step, like the dice,
// but from a stream of their own: botStream sets it apart, so that the bot's choice neither
// repeats nor shifts the dice of the same step.
const botStream = 0x6a09e667f3bcc909

const (
	// botPoll is the longest the worker sleeps without looking for due bots: a bot made due by
	// another instance's write is found within it (a write of this instance's wakes it at once).
	botPoll = time.Second
	// botMinPause keeps the worker from spinning when a due game is held by another instance.
	botMinPause = 25 * time.Millisecond
	// botRetry is how long a bot that could not act waits before it tries again.
	botRetry = time.Minute
	// dueCandidates is how many due games the worker reads, without locks, before it claims one of
	// them by its id: enough that the few other instances' workers, which read the same games,
	// rarely hold them all.
	dueCandidates = 4
)

// checkBots refuses a level that does not exist, and two bots in one seat or one beyond the
// players' seats.
func checkBots(bots []BotSeat, players int) error {
	seats := map[int]bool{}
	for _, b := range bots {
		if !slices.Contains(domain.Levels, b.Level) {
			return domain.Invalid("invalid", "There is no computer player level %q; choose random, greedy or expert.", b.Level)
		}
		if seats[b.Seat] || b.Seat < 0 || b.Seat >= players {
			return domain.Invalid("invalid", "Seat %d cannot take that computer player.", b.Seat)
		}
		seats[b.Seat] = true
	}
	return nil
}

// defaultBotName is "Computer (expert)" for level, numbered when a player already has that name;
// it marks the name it gives as taken.
func defaultBotName(level domain.Level, taken map[string]bool) string {
	base := "Computer (" + string(level) + ")"
	name := base
	for n := 2; taken[names.Key(name)]; n++ {
		name = base + " " + strconv.Itoa(n)
	}
	taken[names.Key(name)] = true
	return name
}

// botToAct is the first seat to act that a computer player holds, -1 when none does.
func botToAct(g *GameRecord, st domain.Status) int { return firstToAct(g, st, true) }

// firstToAct is the first seat to act that a computer player (bot) or a person (!bot) holds, -1
// when none does or the game is over.
func firstToAct(g *GameRecord, st domain.Status, bot bool) int {
	if st.Finished {
		return -1
	}
	for _, seat := range st.ToAct {
		if seat >= 0 && seat < len(g.Seats) && (g.Seats[seat].Bot != "") == bot {
			return seat
		}
	}
	return -1
}

// wakeBotsFor wakes this instance's worker when g, as just committed, has a bot or a deadline due.
func (s *Service) wakeBotsFor(g *GameRecord) {
	if g == nil || (g.BotDueAt == nil && g.TurnDeadline == nil) {
		return
	}
	select {
	case s.botsDue <- struct{}{}:
	default: // already woken
	}
}

// RunBots is the worker that acts on the server: it plays the turns whose time has run out (G-4),
// plays the computer players of every game whose bot is due, and aborts abandoned games, until ctx
// ends, taking its jobs in their order of urgency and the games' owners in turn (fair.go). Every instance runs it. It reads a few due games, then claims one by its row lock, taken
// with SKIP LOCKED and the due condition checked again, which lets only one worker act for a game
// at a time; the due times, kept with the game, survive restarts. Failures are logged, never fatal.
func (s *Service) RunBots(ctx context.Context, logger *slog.Logger) {
	stall := stallWatch{logger: logger, timeout: s.workerPassTimeout()}
	for ctx.Err() == nil {
		acted, stalled, err := s.workerPass(ctx, s.actForDueGame)
		switch {
		case ctx.Err() != nil:
			return
		case stalled:
			stall.stalled(err)
			sleep(ctx, botPoll, nil, nil)
		case err != nil:
			logger.Error("acting on the server", "error", err)
			if !acted {
				sleep(ctx, botPoll, nil, nil) // the database may be away: do not spin
			}
			// A game that failed is postponed; the others due go on at once.
		case !acted:
			stall.passed()
			s.waitForBots(ctx, logger)
		default:
			stall.passed()
		}
	}
}

// actForDueGame does the first of the worker's jobs that is due, in their order of urgency
// (fair.go): a timed-out turn, a bot's move in a game with a person, one in a game with none, an
// abandoned game's abort, an assignment's due-soon events (assignments.go), a finished game's
// review (review_worker.go). acted reports whether it claimed a game or an assignment; an error
// names the job.
func (s *Service) actForDueGame(ctx context.Context) (acted bool, err error) {
	if acted, err = s.actForDue(ctx, DueTurn, DueBot, DueComputerGame); err != nil {
		return acted, fmt.Errorf("turns out of time and computer players' moves: %w", err)
	}
	if acted {
		return true, nil
	}
	if acted, err = s.AbortAbandonedGame(ctx); err != nil {
		return acted, fmt.Errorf("an abandoned game: %w", err)
	}
	if acted {
		return true, nil
	}
	if acted, err = s.RemindDueSoon(ctx); err != nil {
		return acted, fmt.Errorf("an assignment due soon: %w", err)
	}
	if acted {
		return true, nil
	}
	if acted, err = s.ReviewQueuedGame(ctx); err != nil {
		err = fmt.Errorf("a finished game's review: %w", err)
	}
	return acted, err
}

// waitForBots sleeps until the next bot or deadline is due on the service's clock, a local write
// wakes it, botPoll passes on the clock (which is how soon an abandoned game is found), or botPoll
// passes in real time (how soon a due time written by another instance is found). A game due
// already, which another worker holds, is looked at again after botMinPause of real time.
func (s *Service) waitForBots(ctx context.Context, logger *slog.Logger) {
	now := s.now()
	until, pause := now.Add(botPoll), botPoll
	readCtx, cancel := context.WithTimeout(ctx, botPoll)
	next, err := s.store.NextDue(readCtx)
	cancel()
	if err != nil && ctx.Err() == nil {
		logger.Error("acting on the server: reading the next due time", "error", err)
	}
	switch {
	case next == nil:
	case !next.After(now):
		pause = botMinPause
	case next.Before(until):
		until = *next
	}
	due, stop := s.clock.Timer(until)
	defer stop()
	sleep(ctx, pause, due, s.botsDue)
}

// sleep waits, until ctx ends, for d of real time, for due or for wake.
func sleep(ctx context.Context, d time.Duration, due <-chan time.Time, wake <-chan struct{}) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-timer.C:
	case <-due:
	case <-wake:
	}
}

// ActForDueBot claims one game whose bot is due and makes the bot's move, through the same steps
// as a player's action (history, event, version): a game with a person in it when one is due, else
// a game with none. acted reports whether a game was claimed; err says why a claimed bot could not
// act. Its next try is then botRetry away, so that a game that keeps failing neither spins nor
// holds up the games due after it.
func (s *Service) ActForDueBot(ctx context.Context) (acted bool, err error) {
	return s.actForDue(ctx, DueBot, DueComputerGame)
}

// actForDue claims one game in which one of the timed works is due, the first of works before the
// next, and does the work: plays the turn out of time (ActForExpiredTurn) or the bot's move
// (ActForDueBot). A claimed game whose work failed is tried again botRetry later.
func (s *Service) actForDue(ctx context.Context, works ...DueWork) (acted bool, err error) {
	var failure error
	var rec *GameRecord
	claimed, work, err := s.inDueGame(ctx, works, func(work DueWork, tx Tx, g *GameRecord) error {
		if work == DueTurn {
			rec = g
			return s.timeoutTurn(ctx, tx, g)
		}
		var err error
		if rec, failure, err = s.botTurn(ctx, tx, g); err != nil {
			return err
		}
		if failure != nil {
			return tx.ScheduleBot(ctx, g.ID, ptrTo(botRetry))
		}
		return nil
	})
	if claimed == nil {
		return false, err
	}
	if err != nil {
		if ctx.Err() == nil {
			retry := func(tx Tx) error { return tx.ScheduleBot(ctx, claimed.ID, ptrTo(botRetry)) }
			if work == DueTurn {
				retry = func(tx Tx) error { return tx.ScheduleDeadline(ctx, claimed.ID, ptrTo(botRetry)) }
			}
			if perr := s.update(ctx, retry); perr != nil {
				err = errors.Join(err, perr)
			}
		}
		return true, err
	}
	s.wakeBotsFor(rec)
	return true, failure
}

// inDueGame claims, at the clock's now, a game due for one of works and does work on it
// (fairness.claim).
func (s *Service) inDueGame(ctx context.Context, works []DueWork, work func(work DueWork, tx Tx, g *GameRecord) error) (claimed *GameRecord, claimedFor DueWork, err error) {
	return s.fair.claim(ctx, s.now(), s.ttls, works, work)
}

// dueTime is when the work became due in g as claimed (a copy); nil for an abandoned game.
func dueTime(work DueWork, g *GameRecord) *time.Time {
	var at *time.Time
	switch work {
	case DueTurn:
		at = g.TurnDeadline
	case DueBot, DueComputerGame:
		at = g.BotDueAt
	}
	if at == nil {
		return nil
	}
	return ptrTo(*at)
}

// botTurn makes the move of the bot to act in g, which is locked. A bot that cannot move is a
// failure, kept apart from err, which rolls the transaction back.
func (s *Service) botTurn(ctx context.Context, tx Tx, g *GameRecord) (after *GameRecord, failure, err error) {
	game, err := s.decodeGame(g)
	if err != nil {
		return nil, nil, err
	}
	seat := -1
	if game.Status == StatusActive && game.State != nil {
		seat = botToAct(g, game.State.Status())
	}
	if seat < 0 { // no bot to act any more (aborted, or a stale due time): nothing is due
		return nil, nil, tx.ScheduleBot(ctx, g.ID, nil)
	}
	seq, err := tx.NextSeq(ctx, g.ID)
	if err != nil {
		return nil, nil, err
	}
	kind, _ := s.kinds.Lookup(g.Kind)
	action, err := botAction(kind, game.State, seat, g.Seats[seat].Bot, domain.SeededRand(uint64(g.Seed)^botStream, seq))
	if err != nil {
		return nil, fmt.Errorf("game %s seat %d (%s): %w", g.ID, seat, g.Seats[seat].Bot, err), nil
	}
	rec, err := s.act(ctx, tx, g, Caller{Seat: seat}, Action{GameID: g.ID, Action: action})
	if refused := (*refusedAction)(nil); errors.As(err, &refused) {
		return nil, fmt.Errorf("game %s seat %d (%s): the rules refused %s: %w", g.ID, seat, g.Seats[seat].Bot, action, refused.err), nil
	}
	return rec.Game, nil, err
}

// botAction is the action the bot of level in seat chooses in state. It decides from the seat's
// view and legal actions as JSON, what the seat's client would see, and nothing else.
func botAction(kind domain.GameKind, state domain.State, seat int, level domain.Level, r domain.Rand) (json.RawMessage, error) {
	view, legal, err := seatSight(state, seat)
	if err != nil {
		return nil, err
	}
	return players.Decide(kind, level, view, legal, r)
}

func ptrTo[T any](v T) *T { return &v }
