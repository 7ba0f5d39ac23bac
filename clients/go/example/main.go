// Command example plays a game of each kind against a Prime games server with the Go client: it
// creates the game with two named players and options of the kind's own type (requests.go),
// follows the game's live stream while it plays, acts for whichever seat is to act by choosing
// from its legal actions until the game is over, and checks that the stream saw every entry and
// the end, and that it resumes from an entry's id.
//
//	PRIMEGAMES_URL=http://localhost:8080 go run ./example
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"primegames.dev/client"
)

// maxActions is more than any game these choices play: a game that runs longer is a bug.
const maxActions = 5000

func main() {
	url := os.Getenv("PRIMEGAMES_URL")
	if url == "" {
		fmt.Fprintln(os.Stderr, "set PRIMEGAMES_URL to the server's address, e.g. http://localhost:8080")
		os.Exit(2)
	}
	api, err := client.NewClientWithResponses(url)
	if err != nil {
		fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The options are the kind's own type; the defaults for those left out.
	rounds := 2
	for _, req := range []client.CreateGameRequest{
		client.PrimeClimbGame(client.PrimeClimbOptions{}, client.Player("Ada"), client.Player("Ben")),
		client.PrimedGame(client.PrimedOptions{Rounds: &rounds}, client.Player("Ada"), client.Player("Ben")),
	} {
		if err := playOne(ctx, api, req); err != nil {
			fail(fmt.Errorf("%s: %w", req.Game, err))
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "example:", err)
	os.Exit(1)
}

// followed is what the stream saw: its action messages and its end.
type followed struct {
	actions int
	end     *client.GameEndEvent
	err     error
}

func playOne(ctx context.Context, api *client.ClientWithResponses, req client.CreateGameRequest) error {
	kind := req.Game
	created, err := api.CreateGameWithResponse(ctx, &client.CreateGameParams{}, req)
	if err != nil {
		return err
	}
	if created.JSON201 == nil {
		return fmt.Errorf("create: %d %s", created.StatusCode(), created.Body)
	}
	game := created.JSON201.Game
	tokens := map[int]string{}
	for _, seat := range created.JSON201.Seats {
		tokens[seat.Seat] = seat.Token
	}

	// The stream, as Ada sees it, from the start of the history to the end.
	stream, err := api.FollowGame(ctx, game.Id, nil, client.Bearer(tokens[0]))
	if err != nil {
		return err
	}
	defer func() { _ = stream.Close() }()
	seen := make(chan followed, 1)
	go func() { seen <- follow(stream) }()

	actions := 0
	for game.Status == client.GameStatusActive {
		if actions++; actions > maxActions {
			return fmt.Errorf("not over after %d actions", maxActions)
		}
		if game.Turn == nil || len(game.Turn.ToAct) == 0 {
			return fmt.Errorf("an active game with nobody to act")
		}
		seat := game.Turn.ToAct[0]
		legal, err := api.GetLegalActionsWithResponse(ctx, game.Id, client.Bearer(tokens[seat]))
		if err != nil {
			return err
		}
		if legal.JSON200 == nil {
			return fmt.Errorf("legal actions of seat %d: %d %s", seat, legal.StatusCode(), legal.Body)
		}
		action, err := choose(*legal.JSON200)
		if err != nil {
			return err
		}
		acted, err := api.PostActionWithResponse(ctx, game.Id, &client.PostActionParams{}, action, client.Bearer(tokens[seat]))
		if err != nil {
			return err
		}
		if acted.JSON201 == nil {
			return fmt.Errorf("seat %d sent %s: %d %s", seat, action, acted.StatusCode(), acted.Body)
		}
		game = acted.JSON201.Game
	}

	got := <-seen
	if got.err != nil {
		return got.err
	}
	if got.end == nil || got.end.Version != game.Version {
		return fmt.Errorf("the stream ended without the game's end at version %d", game.Version)
	}
	fmt.Printf("%s %s: %s after %d actions, winners %v; the stream showed %d entries, then its end\n",
		kind, game.Id, game.Status, actions, got.end.Winners, got.actions)
	if err := resume(ctx, api, game.Id, tokens[0], got.actions); err != nil {
		return err
	}
	return printEnd(game)
}

// resume follows the finished game's stream again from the middle of its history, as a client
// does after a disconnect: it gets the entries after the id it sends, then the end.
func resume(ctx context.Context, api *client.ClientWithResponses, id client.GameID, token string, entries int) error {
	last := strconv.Itoa(entries/2 - 1) // an entry's id is its seq, from 0
	stream, err := api.FollowGame(ctx, id, &client.StreamGameEventsParams{LastEventID: &last}, client.Bearer(token))
	if err != nil {
		return err
	}
	defer func() { _ = stream.Close() }()
	got := follow(stream)
	if got.err != nil {
		return got.err
	}
	if want := entries - entries/2; got.actions != want || got.end == nil {
		return fmt.Errorf("resumed after %s: %d entries (end: %v), want %d and the end", last, got.actions, got.end != nil, want)
	}
	fmt.Printf("  resumed after entry %s: the %d entries after it, then the end\n", last, got.actions)
	return nil
}

// follow reads the stream to its end.
func follow(stream *client.Stream[client.GameStreamLine]) followed {
	var f followed
	for {
		line, err := stream.Next()
		if errors.Is(err, io.EOF) {
			return f
		}
		if err != nil {
			f.err = err
			return f
		}
		message, err := line.ValueByDiscriminator()
		if err != nil {
			f.err = err
			return f
		}
		switch m := message.(type) {
		case client.GameActionMessage:
			f.actions++
		case client.GameEndMessage:
			f.end = &m.Data
		case client.StreamErrorMessage:
			f.err = fmt.Errorf("stream error: %s", m.Data.Code)
			return f
		}
	}
}

// choose picks one of the seat's legal actions; their kind tells how.
func choose(legal client.LegalActions) (client.Action, error) {
	switch l := legal.Kind().(type) {
	case client.LegalActionsOfPrimeClimb:
		return bestClimb(l.Actions)
	case client.LegalActionsOfPrimed:
		return bestPrimed(l.Actions)
	default:
		return nil, fmt.Errorf("legal actions of a kind this example does not play: %v", l)
	}
}

// bestClimb wins when it can, rolls or chooses when it must, and otherwise takes the move that
// brings the pawns furthest; keepers stay in hand.
func bestClimb(actions client.PrimeClimbLegalActions) (client.Action, error) {
	best, bestScore := -1, -1
	for i, a := range actions {
		score := 0
		switch {
		case a.Type == client.PrimeClimbLegalActionTypeKeeper:
			continue
		case a.Wins:
			score = 1 << 30
		case a.Ends != nil:
			for _, end := range *a.Ends {
				score += end
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("no legal action but keepers")
	}
	return client.ActionOf(actions[best].Action)
}

// bestPrimed plays as many cards as it can, and draws or passes otherwise.
func bestPrimed(actions client.PrimedLegalActions) (client.Action, error) {
	best, most := -1, -1
	for i, a := range actions {
		cards := 0
		if play, err := a.Action.AsPrimedPlayAction(); err == nil && play.Type == client.PrimedPlayActionTypePlay {
			cards = len(play.Cards)
		}
		if cards > most {
			best, most = i, cards
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("no legal action")
	}
	return client.ActionOf(actions[best].Action)
}

// printEnd prints the finished game's state, read through its kind.
func printEnd(game client.Game) error {
	switch g := game.Kind().(type) {
	case client.GameOfPrimeClimb:
		if g.State == nil {
			return fmt.Errorf("a finished game without a state")
		}
		for _, player := range g.State.Players {
			fmt.Printf("  seat %d's pawns end on %v\n", player.Seat, player.Pawns)
		}
	case client.GameOfPrimed:
		if g.State == nil {
			return fmt.Errorf("a finished game without a state")
		}
		fmt.Printf("  %d rounds scored\n", len(g.State.Scores.Rounds))
	default:
		return fmt.Errorf("a game of an unexpected kind: %v", g)
	}
	return nil
}
