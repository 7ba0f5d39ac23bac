package play

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

// parts are the Service's parts, built from the stores.
type parts struct {
	classrooms    classrooms
	histories     histories
	subscriptions subscriptions
}

// newParts builds the parts from the stores and the service's configuration (s's fields once its
// options have run).
func newParts(store Stores, s *Service) parts {
	return parts{
		classrooms:    classrooms{store: store.ClassroomStore},
		histories:     histories{history: store.History},
		subscriptions: subscriptions{store: store.WebhookSubscriptions, games: store.GameReader, clock: s.clock, sender: s.webhookSender, cfg: s.webhookCfg},
	}
}
