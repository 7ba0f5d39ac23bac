package i18n_test

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"primegames/domain"
	"primegames/domain/cards"
	"primegames/domain/games"
	"primegames/domain/players"
	"primegames/domain/scene"
	"primegames/play"
	"primegames/play/i18n"
)

// sentenceNames are players named like sentences of the catalogs and of the pictures: their names
// must come out as typed, in every language.
var sentenceNames = []string{"Start", "Primed", "Curse", "the game began"}

// plainNames are names no catalog holds, to compare with: as long as the others, and as the
// others beginning with a consonant (French writes "d’" before a vowel), so that a line cut to fit
// is cut at the same place.
var plainNames = []string{"Zebra", "Yvonne", "Wanda", "vincent vacaro"}

// drawPairs draws whole games of every kind with pictures, seeded, from several viewers, their
// replays, the progress picture and the sign-in cards, each twice: with players (and a classroom)
// named like sentences, and with plain names. It hands each pair to each as it is drawn.
func drawPairs(t *testing.T, each func(named, plain *scene.Scene)) {
	t.Helper()
	for _, kind := range games.All().Kinds() {
		if kind.Picture == nil {
			continue
		}
		_, seats, err := kind.Rules.Options(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{seats.Min, min(seats.Max, 4)} {
			for seed := uint64(1); seed <= 2; seed++ {
				steps, err := players.Playout(kind, n, players.Random, seed+uint64(10*n), 3000)
				if err != nil {
					t.Fatal(err)
				}
				viewers := []domain.Viewer{domain.Full, domain.Player(0)}
				var positions [2][]domain.Position
				for i, st := range steps {
					for _, viewer := range viewers {
						view, err := json.Marshal(st.State.View(viewer))
						if err != nil {
							t.Fatal(err)
						}
						last, err := json.Marshal(st.Outcome.Redact(viewer))
						if err != nil {
							t.Fatal(err)
						}
						var pair [2]*scene.Scene
						for k, names := range [][]string{sentenceNames[:n], plainNames[:n]} {
							pos := domain.Position{View: view, Last: last, Players: names, Seq: int64(i)}
							if viewer.Role == domain.RolePlayer {
								pos.You = &viewer.Seat
							}
							layout := domain.Layouts[i%len(domain.Layouts)]
							if pair[k], err = kind.Picture.Still(layout, pos); err != nil {
								t.Fatalf("%s step %d: %v", kind.Name(), i, err)
							}
							if viewer == domain.Full {
								positions[k] = append(positions[k], pos)
							}
						}
						each(pair[0], pair[1])
					}
				}
				// The replay's last step, as a PNG replay has it, and an animated replay's words.
				var last, replay [2]*scene.Scene
				for k, names := range [][]string{sentenceNames[:n], plainNames[:n]} {
					title := scene.Say("%s: %s", kind.Picture.Title, scene.Names(domain.SeatsWho(names, n)...))
					if last[k], err = kind.Picture.ReplayLast(domain.Phone, title, positions[k]); err != nil {
						t.Fatal(err)
					}
					err = kind.Picture.WriteReplay(discard{}, domain.Desktop, title, positions[k][len(positions[k])-10:], 1.5, func(sc *scene.Scene) *scene.Scene {
						if !sc.Title.Zero() {
							replay[k] = sc
						}
						return sc
					})
					if err != nil {
						t.Fatal(err)
					}
				}
				each(last[0], last[1])
				each(replay[0], replay[1])
			}
		}
	}
	// The progress picture and the sign-in cards, of a classroom and a student named like sentences.
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var progress, signIn [2]*scene.Scene
	for k, names := range [][]string{sentenceNames, plainNames} {
		figures := make([]play.ProgressFigures, 7)
		for i := range figures {
			figures[i] = play.ProgressFigures{Start: day.AddDate(0, 0, i), Played: i, Finished: i / 2, Won: i / 3, Hints: 1, Moves: 3 * i, MoveMS: 2500 * int64(i)}
		}
		p := &play.ClassroomProgress{From: day, To: day.AddDate(0, 0, 6), Bucket: play.BucketDay, Class: figures,
			Students: []play.StudentProgress{{StudentID: "s1", Name: names[1], Buckets: figures}}}
		progress[k] = play.ProgressPicture(p, names[0])
		page := cards.Page{Paper: cards.A4, Classroom: names[0], Number: 1, Of: 2,
			Cards: []cards.Card{{Name: names[1], ClassCode: "K7Q2", Code: "AB12", Link: "https://example.com/s"}}}
		var err error
		if signIn[k], err = page.Scene(); err != nil {
			t.Fatal(err)
		}
	}
	each(progress[0], progress[1])
	each(signIn[0], signIn[1])
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// texts are the lines of text of nodes, with their words, the frozen board's left out.
func texts(nodes []scene.Node) []scene.Text {
	var out []scene.Text
	for _, n := range nodes {
		switch n := n.(type) {
		case scene.Text:
			out = append(out, n)
		case scene.Group:
			out = append(out, texts(n.Children)...)
		}
	}
	return out
}

// Every sentence a picture says in its title, its description and its lines of text (a game's
// position, a replay, the progress picture, the sign-in cards) is said in every language from
// translated parts: the catalog has every format and reads back every sentence of the domain,
// nothing is left as the English said it, and a player named like a sentence ("Start", "Primed")
// keeps the name as typed.
func TestEveryPictureIsDescribedInEveryLanguage(t *testing.T) {
	t.Parallel()
	// "Zebra" → "Start" and so on: what the plain names' words become with the sentence-like names.
	rename := func(s string) string {
		for i, p := range plainNames {
			s = strings.ReplaceAll(s, p, sentenceNames[i])
		}
		return s
	}
	english := regexp.MustCompile(`\b(pawn|seat|turn|round|card|cards|Player|to play|to roll|won|Last action|Top card|draw pile|hand|score so far|passed|drew|entries|steps)\b`)
	type problems struct {
		unsaid map[string]bool
		bad    []string
	}
	langs := map[string]*problems{}
	for _, code := range i18n.Codes()[1:] {
		langs[code] = &problems{unsaid: map[string]bool{}}
	}
	done := map[string]bool{}
	pictures, lines := 0, 0
	check := func(named, plain scene.Words, line bool, cut int) {
		key := named.String() + "\x00" + plain.String()
		if done[key] {
			return
		}
		done[key] = true
		for code, pr := range langs {
			l := i18n.Of(code)
			for _, u := range l.Unsaid(named) {
				pr.unsaid[u] = true
			}
			said, p := scene.Cut(l.Say(named), cut), scene.Cut(l.Say(plain), cut)
			switch {
			case said == scene.Cut(named.String(), cut) && !line && named.Format != "%s: %s": // a replay's title: the game's name and the players'
				pr.bad = append(pr.bad, "said as in English: "+said)
			case said != rename(p) && !strings.Contains(said, "…"):
				pr.bad = append(pr.bad, "a name was taken for a sentence:\n got "+said+"\nwant "+rename(p))
			case english.MatchString(p):
				pr.bad = append(pr.bad, english.FindString(p)+" left in English in "+p)
			}
		}
	}
	drawPairs(t, func(named, plain *scene.Scene) {
		pictures++
		check(named.Title, plain.Title, false, 0)
		check(named.Desc, plain.Desc, false, 0)
		a, b := texts(named.Nodes), texts(plain.Nodes)
		if len(a) != len(b) {
			t.Fatalf("%q has %d lines of text, %q %d", named.Title, len(a), plain.Title, len(b))
		}
		for i := range a {
			if a[i].Words.Zero() {
				// A line without words: a number, a label of the board, a code; it is read back
				// through the catalog (Lang.Text), so it holds no name.
				for j, name := range sentenceNames {
					if a[i].Text != b[i].Text && strings.Contains(a[i].Text, name) && !strings.Contains(b[i].Text, plainNames[j]) {
						t.Errorf("%q is a line of text with a name and no words", a[i].Text)
					}
				}
				continue
			}
			lines++
			check(a[i].Words, b[i].Words, true, a[i].Fit)
		}
	})
	t.Logf("%d pictures, %d lines of text, %d different sentences", pictures, lines, len(done))
	if pictures < 1000 {
		t.Fatalf("only %d pictures", pictures)
	}
	for _, code := range i18n.Codes()[1:] {
		pr := langs[code]
		var list []string
		for u := range pr.unsaid {
			list = append(list, u)
		}
		sort.Strings(list)
		for _, u := range list {
			t.Errorf("%s cannot say %s", code, u)
		}
		for i, b := range pr.bad {
			if i == 10 {
				t.Errorf("%s: %d more", code, len(pr.bad)-10)
				break
			}
			t.Errorf("%s: %s", code, b)
		}
	}
}
