package play

import (
	"primegames/domain"
)

// The service's parts: each holds only the ports its methods use, taken from the Stores once at
// New, so that what a part may touch is read off its fields and a test fakes only those. The
// Service's exported methods of a part delegate to it. The game's lifecycle (creating, seating,
// acting, the worker) stays on the Service itself: it reads, locks and writes games through most
// of the ports, and would be a part holding nearly all of them.

// classrooms keeps classrooms and their students (classroom.go, classroom_position.go).
type classrooms struct {
	store ClassroomStore
}

// histories reads games' histories and refused actions (review.go).
type histories struct {
	history History
}

// subscriptions keeps webhook subscriptions and seals their signing keys (webhooks.go,
// webhook_seal.go); the games it reads are those a subscription of scope game names. Sending
// them is play/webhooks' (webhook_worker.go).
type subscriptions struct {
	store  WebhookSubscriptions
	games  GameReader
	clock  Clock
	sender WebhookSender
	cfg    WebhookConfig
}

// reviews makes and keeps games' move reviews (movereview.go).
type reviews struct {
	store   ReviewStore
	history History
}

// statistics gathers a classroom's statistics (stats.go, stats_review.go) and progress
// (progress.go): the tallies, refusals and hints the stores keep, the summaries of the move reviews
// the worker made of finished games, and the figures per day the steps kept.
type statistics struct {
	stats     StatsStore
	reviews   ReviewStore
	students  ClassroomStore
	summaries ProgressStore
	kinds     *domain.Catalogue
}

// listings lists games and says who a token is (list.go, me.go, player_events.go's PlayerGames).
type listings struct {
	games GameReader
	clock Clock
}

// authorities resolve tokens to what they open, and tell which have ended (service.go's Resolve,
// observers.go's resolveObserver, authority.go).
type authorities struct {
	store    Authorities
	accounts AccountStore
	teaching Teaching
	sessions SessionStore
	clock    Clock
}

// observers mint and revoke observer tokens, for those who may (observers.go): they read the game
// a token is for, and write the tokens in a transaction of their own (its ObserverTx).
type observers struct {
	games   GameReader
	updater Updater
	clock   Clock
}

// parts are the Service's parts, built from the stores.
type parts struct {
	classrooms    classrooms
	histories     histories
	subscriptions subscriptions
	reviews       reviews
	statistics    statistics
	listings      listings
	authorities   authorities
	observers     observers
	signInCodes   signInCodes
	assignments   assignments
}

// newParts builds the parts from the stores and the service's configuration (s's fields once its
// options have run).
func newParts(store Stores, s *Service) parts {
	review := reviews{store: store.ReviewStore, history: store.History}
	return parts{
		classrooms:    classrooms{store: store.ClassroomStore},
		histories:     histories{history: store.History},
		reviews:       review,
		statistics:    statistics{stats: store.StatsStore, reviews: store.ReviewStore, students: store.ClassroomStore, summaries: store.ProgressStore, kinds: s.kinds},
		listings:      listings{games: store.GameReader, clock: s.clock},
		authorities:   authorities{store: store.Authorities, accounts: store.AccountStore, teaching: store.Teaching, sessions: store.SessionStore, clock: s.clock},
		observers:     observers{games: store.GameReader, updater: store.Updater, clock: s.clock},
		subscriptions: subscriptions{store: store.WebhookSubscriptions, games: store.GameReader, clock: s.clock, sender: s.webhookSender, cfg: s.webhookCfg},
		signInCodes:   signInCodes{store: store.SignInCodeStore, classrooms: store.ClassroomStore, clock: s.clock, secret: s.signInSecret},
		assignments:   assignments{store: store.AssignmentStore, kinds: s.kinds, clock: s.clock},
	}
}
