package api

import (
	"bytes"
	"fmt"
	"testing"

	"primegames/play"
)

// The game cache holds no more than its limit, drops the games read least recently first, keeps one
// version of a game, and never lets an older version replace a newer one.
func TestGameCacheBoundsAndVersions(t *testing.T) {
	t.Parallel()
	c := newGameCache(1000)
	body := func(s string) cachedBody { return cachedBody{bytes: bytes.Repeat([]byte(s), 100)} }
	key := bodyKey{seat: 0}
	stamp := func(v int64) gameStamp {
		return (&play.GameRecord{Version: v, Seats: []play.Seat{{Name: "Ada"}, {Name: "Ben"}}}).Stamp()
	}
	for i := range 10 {
		c.put(fmt.Sprint(i), stamp(1), key, body("x"))
	}
	c.get("0", stamp(1), key) // read last: kept
	c.put("10", stamp(1), key, body("y"))
	if _, ok := c.get("1", stamp(1), key); ok {
		t.Error("game 1, read least recently, is still kept past the limit")
	}
	if _, ok := c.get("0", stamp(1), key); !ok {
		t.Error("game 0, read recently, was dropped")
	}
	if c.size > c.limit {
		t.Errorf("size %d over the limit %d", c.size, c.limit)
	}

	c.put("0", stamp(2), key, body("z"))
	if _, ok := c.get("0", stamp(1), key); ok {
		t.Error("version 1 is still served once version 2 is kept")
	}
	c.put("0", stamp(1), key, body("x"))
	if got, ok := c.get("0", stamp(2), key); !ok || got.bytes[0] != 'z' {
		t.Error("a late body of version 1 replaced version 2")
	}
	renamed := (&play.GameRecord{Version: 2, Seats: []play.Seat{{Name: "Adele"}, {Name: "Ben"}}}).Stamp()
	if _, ok := c.get("0", renamed, key); ok {
		t.Error("a body is served for the seats' old names")
	}
	if _, ok := c.get("0", stamp(2), bodyKey{seat: 1}); ok {
		t.Error("seat 0's body is served to seat 1")
	}
}
