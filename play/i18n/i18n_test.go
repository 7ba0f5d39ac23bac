package i18n_test

import (
	"testing"

	"primegames/domain/scene"
	"primegames/play/i18n"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		wishes, want string
		ok           bool
	}{
		{"", "en", false},
		{"es-MX", "es", true},
		{"es-MX,es;q=0.9,en;q=0.5", "es", true},
		{"en;q=0.5,fr;q=0.9", "fr", true},
		{"pt", "pt-BR", true},
		{"pt-BR", "pt-BR", true},
		{"de-AT", "de", true},
		{"ja", "en", false},
		{"ja,de;q=0.3", "de", true},
		{"xx-!!", "en", false},
		{"fr-CA", "fr", true},
		{"en-GB", "en", true},
	} {
		l, ok := i18n.Match(tc.wishes)
		if l.Code() != tc.want || ok != tc.ok {
			t.Errorf("Match(%q) = %s, %v; want %s, %v", tc.wishes, l.Code(), ok, tc.want, tc.ok)
		}
	}
}

func TestTextReadsSentencesBack(t *testing.T) {
	t.Parallel()
	es := i18n.Of("es")
	for in, want := range map[string]string{
		"Last action":                        "Última jugada",
		"Deck: 1 cards · discard pile: 3":    "Mazo: 1 carta · descarte: 3",
		"Deck: 12 cards · discard pile: 0":   "Mazo: 12 cartas · descarte: 0",
		"It is not your turn: Ada (seat 1).": "No es tu turno: Ada (puesto 1).",
		"It is not your turn: seat 2.":       "No es tu turno: puesto 2.",
		"Something no catalog has.":          "Something no catalog has.",
	} {
		if got := es.Text(in); got != want {
			t.Errorf("Text(%q) = %q; want %q", in, got, want)
		}
	}
	if got := es.Sprintf("%s A hint is for a seat that may act now.", "It is not your turn: seat 2."); got != "No es tu turno: puesto 2. Una pista es para un puesto que puede jugar ahora." {
		t.Errorf("nested: %q", got)
	}
	if got := i18n.English.Sprintf("Hints are turned off in game %s.", "g1"); got != "Hints are turned off in game g1." {
		t.Errorf("English: %q", got)
	}
}

// The sentences the games build from pieces come out whole in another language.
func TestComposedSentences(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, in, want string }{
		{"es", "pawn 1: 24 × 4 = 96, + 2 = 98, then your +3 card: 101 — you win!",
			"peón 1: 24 × 4 = 96, + 2 = 98, luego tu carta +3: 101 — ¡ganas!"},
		{"de", "pawn 0: 37 + 4 = 41, then pawn 1: 20 × 2 = 40 lands pawn 0 on 41, a prime, and draws a Prime Card",
			"Figur 0: 37 + 4 = 41, dann Figur 1: 20 × 2 = 40 setzt Figur 0 auf 41, eine Primzahl, und zieht eine Primkarte"},
		{"fr", "playing 3 and 5 on 6 (6 + 3 + 5 = 14 = 2 × 7) would have left 4 in your hand instead of 9",
			"jouer 3 et 5 sur 6 (6 + 3 + 5 = 14 = 2 × 7) t’aurait laissé 4 en main au lieu de 9"},
		{"pt-BR", "bumped Ada's pawn 1 from 37 to Start", "mandou o peão 1 de Ada do 37 para o Início"},
		{"es", "The Primed pile was shuffled into a new draw pile of 1 cards.", "La pila Primed se barajó en un nuevo mazo de 1 carta."},
		{"de", "3 finished, 1 won, 2 hints, 0 missed, 2.5 s a move", "3 beendet, 1 gewonnen, 2 Tipps, 0 verpasst, 2,5 s pro Zug"},
		{"fr", "1 Dec 2026 to 7 Dec 2026, by day (UTC)", "du 1 déc. 2026 au 7 déc. 2026, par jour (UTC)"},
		{"de", "30 Nov", "30. Nov."},
		{"pt-BR", "2 Mar 2026", "2 de mar. de 2026"},
		{"es", "The Primed pile was shuffled into a new draw pile of 12 cards.", "La pila Primed se barajó en un nuevo mazo de 12 cartas."},
	} {
		if got := i18n.Of(tc.lang).Text(tc.in); got != tc.want {
			t.Errorf("%s: %q\n got %q\nwant %q", tc.lang, tc.in, got, tc.want)
		}
	}
}

// A picture's words are said from their parts: names as typed, and the seats of the domain's own
// sentences named after the sentence is translated, as each language writes them.
func TestSayNamesSeats(t *testing.T) {
	t.Parallel()
	names := []any{"Ana", "Start", scene.Say("Player %d", 3)}
	for _, tc := range []struct {
		lang string
		in   scene.Words
		want string
	}{
		{"es", scene.Say("%s", scene.Sentence{Text: "you take Curse from seat 1", Names: names}), "te llevas Maldición de Start"},
		{"fr", scene.Say("%s", scene.Sentence{Text: "you take Curse from seat 0", Names: names}), "tu prends Malédiction à Ana"},
		{"fr", scene.Say("%s", scene.Sentence{Text: "pawn 0 (on 5) trades places with pawn 1 of seat 0 (on 9)", Names: names}),
			"le pion 0 (sur 5) échange sa place avec le pion 1 d’Ana (sur 9)"},
		{"fr", scene.Say("%s", scene.Sentence{Text: "seat 2 may only subtract or divide with the dice on their next turn", Names: names}),
			"Joueur 3 ne peut que soustraire ou diviser avec les dés à son prochain tour"},
		{"de", scene.Say("Last action (%s): %s.", "Start", scene.Join("; ", scene.Say("rolled %s", "3, 5"), scene.Say("the game began"))),
			"Letzter Zug (Start): hat 3, 5 gewürfelt; das Spiel hat begonnen."},
		{"pt-BR", scene.Say("%s", scene.Sentence{Text: "pawn 1 of seat 1: 45 → 0 (Start)", Names: names}), "peão 1 de Start: 45 → 0 (Início)"},
		{"es", scene.Say("Primed, round %d of %d, %s", 1, 4, scene.Say("%s to play", "Primed")), "Primed, ronda 1 de 4: le toca jugar a Primed"},
		{"es", scene.Names("Ana", "Start", "Primed"), "Ana, Start y Primed"},
		{"fr", scene.Join("; ", scene.Say("%s", "Ana"), scene.Say("%s", "Bea"), scene.Say("%s", "Cy")), "Ana ; Bea ; Cy"},
		{"en", scene.Say("%s", scene.Sentence{Text: "you take Curse from seat 1", Names: names}), "you take Curse from Start"},
	} {
		if got := i18n.Of(tc.lang).Say(tc.in); got != tc.want {
			t.Errorf("%s: %q\n got %q\nwant %q", tc.lang, tc.in.String(), got, tc.want)
		}
	}
}
