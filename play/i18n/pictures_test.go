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

// plainNames are names no catalog holds, to compare with.
var plainNames = []string{"Zed", "Yoko", "Wim", "Vic"}

// wordsOf is what a picture says in words: its title and its description.
type wordsOf struct{ title, desc scene.Words }

// gamePictures draws whole games of every kind with pictures, seeded, from several viewers, and
// gives each position's words twice: with players named like sentences, and with plain names.
func gamePictures(t *testing.T) (named, plain []wordsOf) {
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
						for k, names := range [][]string{sentenceNames[:n], plainNames[:n]} {
							pos := domain.Position{View: view, Last: last, Players: names, Seq: int64(i)}
							if viewer.Role == domain.RolePlayer {
								pos.You = &viewer.Seat
							}
							sc, err := kind.Picture.Still(domain.Desktop, pos)
							if err != nil {
								t.Fatalf("%s step %d: %v", kind.Name(), i, err)
							}
							w := wordsOf{sc.Title, sc.Desc}
							if k == 0 {
								named = append(named, w)
							} else {
								plain = append(plain, w)
							}
							if viewer == domain.Full {
								positions[k] = append(positions[k], pos)
							}
						}
					}
				}
				// The replay's last step, as a PNG replay has it, and an animated replay's words.
				for k, names := range [][]string{sentenceNames[:n], plainNames[:n]} {
					title := scene.Say("%s: %s", kind.Picture.Title, scene.Names(domain.SeatsWho(names, n)...))
					sc, err := kind.Picture.ReplayLast(domain.Phone, title, positions[k])
					if err != nil {
						t.Fatal(err)
					}
					w := wordsOf{sc.Title, sc.Desc}
					var replay wordsOf
					err = kind.Picture.WriteReplay(discard{}, domain.Desktop, title, positions[k][len(positions[k])-10:], 1.5, func(sc *scene.Scene) *scene.Scene {
						if !sc.Title.Zero() {
							replay = wordsOf{sc.Title, sc.Desc}
						}
						return sc
					})
					if err != nil {
						t.Fatal(err)
					}
					if k == 0 {
						named = append(named, w, replay)
					} else {
						plain = append(plain, w, replay)
					}
				}
			}
		}
	}
	// The progress picture and the sign-in cards, of a classroom named like a sentence.
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for k, class := range []string{"Start", "Zed"} {
		figures := make([]play.ProgressFigures, 7)
		for i := range figures {
			figures[i] = play.ProgressFigures{Start: day.AddDate(0, 0, i), Played: i, Finished: i / 2, Won: i / 3, Hints: 1, Moves: 3 * i, MoveMS: 2500 * int64(i)}
		}
		p := &play.ClassroomProgress{From: day, To: day.AddDate(0, 0, 6), Bucket: play.BucketDay, Class: figures,
			Students: []play.StudentProgress{{StudentID: "s1", Name: "Primed", Buckets: figures}}}
		sc := play.ProgressPicture(p, class)
		page := cards.Page{Paper: cards.A4, Classroom: class, Number: 1, Of: 2, Cards: []cards.Card{{Name: "Primed", ClassCode: "K7Q2", Code: "AB12", Link: "https://example.com/s"}}}
		cs, err := page.Scene()
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			named = append(named, wordsOf{sc.Title, sc.Desc}, wordsOf{cs.Title, cs.Desc})
		} else {
			plain = append(plain, wordsOf{sc.Title, sc.Desc}, wordsOf{cs.Title, cs.Desc})
		}
	}
	if len(named) < 1000 || len(named) != len(plain) {
		t.Fatalf("%d pictures with sentence-like names, %d with plain names", len(named), len(plain))
	}
	return named, plain
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Every sentence a picture's title and description can say (a game's position, a replay, the
// progress picture, the sign-in cards) is said in every language from translated parts: the
// catalog has every format and reads back every sentence of the domain, nothing is left as the
// English said it, and a player named like a sentence ("Start", "Primed") keeps the name as typed.
func TestEveryPictureIsDescribedInEveryLanguage(t *testing.T) {
	t.Parallel()
	start := time.Now()
	named, plain := gamePictures(t)
	t.Logf("drawn in %v", time.Since(start))
	defer func() { t.Logf("said in %v", time.Since(start)) }()
	seen := map[string]bool{}
	for _, w := range plain {
		seen[w.title.String()] = true
		seen[w.desc.String()] = true
	}
	t.Logf("%d pictures, %d different titles and descriptions", len(named), len(seen))
	// "Zed" → "Start" and so on: what the plain names' words become with the sentence-like names.
	rename := func(s string) string {
		for i, p := range plainNames {
			s = strings.ReplaceAll(s, p, sentenceNames[i])
		}
		return s
	}
	english := regexp.MustCompile(`\b(pawn|seat|turn|round|card|cards|Player|to play|to roll|won|Last action|Top card|draw pile|hand|score so far|passed|drew|entries|steps)\b`)
	for _, code := range i18n.Codes()[1:] {
		l := i18n.Of(code)
		unsaid := map[string]bool{}
		bad := 0
		report := func(format string, args ...any) {
			if bad < 12 {
				t.Errorf(code+": "+format, args...)
			}
			bad++
		}
		done := map[string]bool{}
		for i, w := range named {
			for j, part := range []scene.Words{w.title, w.desc} {
				key := part.String() + "\x00" + []scene.Words{plain[i].title, plain[i].desc}[j].String()
				if done[key] {
					continue
				}
				done[key] = true
				for _, u := range l.Unsaid(part) {
					unsaid[u] = true
				}
				said := l.Say(part)
				p := l.Say([]scene.Words{plain[i].title, plain[i].desc}[j])
				if said == part.String() && part.Format != "%s: %s" { // a replay's title: the game's name and the players'

					report("said as in English: %q", said)
				}
				if want := rename(p); said != want {
					report("a name was taken for a sentence:\n got %q\nwant %q", said, want)
				}
				if m := english.FindString(p); m != "" {
					report("%q left in English in %q", m, p)
				}
			}
		}
		var list []string
		for u := range unsaid {
			list = append(list, u)
		}
		sort.Strings(list)
		for _, u := range list {
			t.Errorf("%s cannot say %s", code, u)
		}
		if bad > 12 {
			t.Errorf("%s: %d more", code, bad-12)
		}
	}
}
