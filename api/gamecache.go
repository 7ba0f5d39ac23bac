package api

import (
	"container/list"
	"sync"

	"primegames/play"
)

// gameCacheBytes bounds the bodies the game cache holds: a game's body is 1 to 3 KB as JSON and a
// few hundred bytes gzipped, so this keeps the last thousands of games read.
const gameCacheBytes = 8 << 20

// gameCache keeps the bodies of GET /v1/games/{id} and GET …/legal-actions already rendered,
// JSON-encoded and gzipped, for the version of each game read last, so that reading a game that has
// not changed costs the read of its record (which says what the current version is) and no
// decoding, rendering or compressing. It never decides what is current: a body is found only for the stamp of the
// record the request has just read, so a change made by any instance shows at once. Bodies of older
// versions are dropped when a newer one is kept; the least recently read games go first when the
// bodies pass gameCacheBytes.
type gameCache struct {
	mu      sync.Mutex
	limit   int
	size    int
	byID    map[string]*list.Element // of *cachedGame
	recency *list.List               // most recently read first
}

// cachedGame is the bodies of one version of a game, one for each way of seeing it.
type cachedGame struct {
	id     string
	stamp  gameStamp
	bodies map[bodyKey]cachedBody
	size   int
}

// cachedBody is a body as it is sent: gzipped when the client accepts it and it is big enough to be
// worth it (as compress decides).
type cachedBody struct {
	bytes   []byte
	gzipped bool
}

// gameStamp is the stamp of a game record (play.RecordStamp): its version, seat names and turn
// deadline.
type gameStamp = play.RecordStamp

// bodyKey is one way of seeing a game: what the caller may see (play.ViewerFor reads only these), whether
// their legal actions are included, and whether the body is gzipped.
type bodyKey struct {
	seat             int
	creator, teacher bool
	legalActions     bool // the game's body with the caller's legal actions (include=legal_actions)
	legalActionsOnly bool // the body of GET …/legal-actions
	gzip             bool
	lang             string // the language of the body's sentences
}

func newGameCache(limit int) *gameCache {
	return &gameCache{limit: limit, byID: map[string]*list.Element{}, recency: list.New()}
}

// get returns the body kept for the game at stamp, seen as key.
func (c *gameCache) get(id string, stamp gameStamp, key bodyKey) (cachedBody, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return cachedBody{}, false
	}
	g := e.Value.(*cachedGame)
	if !g.stamp.Equal(stamp) {
		return cachedBody{}, false
	}
	body, ok := g.bodies[key]
	if ok {
		c.recency.MoveToFront(e)
	}
	return body, ok
}

// put keeps body for the game at stamp, seen as key. A body of an older version than the one kept
// is not kept; a body of a newer version replaces the older version's.
func (c *gameCache) put(id string, stamp gameStamp, key bodyKey, body cachedBody) {
	if len(body.bytes) > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	switch {
	case !ok:
		e = c.recency.PushFront(&cachedGame{id: id, stamp: stamp, bodies: map[bodyKey]cachedBody{}})
		c.byID[id] = e
	case e.Value.(*cachedGame).stamp.Version > stamp.Version:
		return
	case !e.Value.(*cachedGame).stamp.Equal(stamp):
		g := e.Value.(*cachedGame)
		c.size -= g.size
		*g = cachedGame{id: id, stamp: stamp, bodies: map[bodyKey]cachedBody{}}
	}
	c.recency.MoveToFront(e)
	g := e.Value.(*cachedGame)
	grown := len(body.bytes) - len(g.bodies[key].bytes)
	c.size += grown
	g.size += grown
	g.bodies[key] = body
	for c.size > c.limit {
		oldest := c.recency.Back()
		evicted := c.recency.Remove(oldest).(*cachedGame)
		delete(c.byID, evicted.id)
		c.size -= evicted.size
	}
}
