package play_test

import (
	"context"
	"testing"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// BenchmarkClassroomAcceptedAction is BenchmarkAcceptedAction in a classroom's game of two
// students: what the classroom's figures kept in the step's transaction add to a step.
func BenchmarkClassroomAcceptedAction(b *testing.B) {
	for _, kind := range []string{"prime-climb", "primed"} {
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			db := repotest.NewDB(b)
			master := play.New(db.Games().Stores(), games.All())
			class, teacherToken, err := master.CreateClassroom(ctx, "Bench")
			if err != nil {
				b.Fatal(err)
			}
			var ids []string
			var students []play.Principal
			for _, name := range []string{"Ada", "Bo"} {
				st, _, token, err := master.JoinClassroom(ctx, class.JoinCode, name)
				if err != nil {
					b.Fatal(err)
				}
				p, err := master.Resolve(ctx, play.IdentifyToken(token, ""))
				if err != nil {
					b.Fatal(err)
				}
				ids, students = append(ids, st.ID), append(students, p)
			}
			teacher, err := master.Resolve(ctx, play.IdentifyToken(teacherToken, ""))
			if err != nil {
				b.Fatal(err)
			}
			var game *play.Game
			newGame := func() {
				created, err := master.Create(ctx, play.NewGame{Kind: kind, Students: ids}, teacher, nil)
				if err != nil {
					b.Fatal(err)
				}
				game = created.Game
			}
			newGame()
			next := func() func() {
				if game.State.Status().Finished {
					newGame()
				}
				seat := game.State.Status().ToAct[0]
				in := play.Action{GameID: game.ID, Action: legalAction(b, game.State, seat)}
				return func() {
					acted, err := master.Act(ctx, in, students[seat], nil)
					if err != nil {
						b.Fatal(err)
					}
					game = acted.Game
				}
			}
			for range 10 {
				next()()
			}
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				act := next()
				b.StartTimer()
				act()
			}
		})
	}
}
