package client_test

import (
	"encoding/json"
	"testing"

	"primegames.dev/client"
)

func decodeGame(t *testing.T, body string) client.Game {
	t.Helper()
	var g client.Game
	if err := json.Unmarshal([]byte(body), &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGameKindGivesTheKindsState(t *testing.T) {
	t.Parallel()
	g := decodeGame(t, `{"game":"primed","status":"active","options":{"deck":"primed"},"state":{"game":"primed","round":2,"top":7}}`)
	switch k := g.Kind().(type) {
	case client.GameOfPrimed:
		if k.State == nil || k.State.Round != 2 || k.State.Top != 7 {
			t.Errorf("state = %+v", k.State)
		}
	default:
		t.Fatalf("Kind = %#v, want GameOfPrimed", k)
	}
	if _, ok := g.PrimeClimb(); ok {
		t.Error("a Primed game reads as Prime Climb")
	}
	if p, ok := g.Primed(); !ok || p.State == nil {
		t.Errorf("Primed() = %+v, %v", p, ok)
	}
}

func TestALobbyHasNoState(t *testing.T) {
	t.Parallel()
	g := decodeGame(t, `{"game":"prime-climb","status":"lobby","options":{},"state":null}`)
	pc, ok := g.PrimeClimb()
	if !ok || pc.State != nil {
		t.Errorf("PrimeClimb() = %+v, %v; want the kind with no state", pc, ok)
	}
}

func TestAKindTheClientDoesNotKnow(t *testing.T) {
	t.Parallel()
	g := decodeGame(t, `{"game":"nim","status":"active","state":{"heaps":[3,4,5]}}`)
	k, ok := g.Kind().(client.UnknownKind)
	if !ok || k.Kind != "nim" || k.Err != nil {
		t.Errorf("Kind = %#v, want UnknownKind nim", g.Kind())
	}
	var l client.LegalActions
	if err := json.Unmarshal([]byte(`{"game":"nim","actions":[],"seat":0,"to_act":[],"version":1}`), &l); err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Primed(); ok {
		t.Error("legal actions of an unknown kind read as Primed's")
	}
}

func TestFieldsThatDoNotDecodeAsTheirKinds(t *testing.T) {
	t.Parallel()
	g := decodeGame(t, `{"game":"primed","status":"active","state":{"round":"two"}}`)
	k, ok := g.Kind().(client.UnknownKind)
	if !ok || k.Err == nil {
		t.Errorf("Kind = %#v, want UnknownKind with the decoding error", g.Kind())
	}
}
