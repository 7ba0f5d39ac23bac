package i18n_test

import (
	"testing"

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
