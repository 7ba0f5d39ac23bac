package play

// OfferHintsOnly makes offered decide which games offer hints, until the returned restore is
// called; the game option that decides it in the service is wired at merge.
func OfferHintsOnly(offered func(*Game) bool) (restore func()) {
	was := hintsOffered
	hintsOffered = offered
	return func() { hintsOffered = was }
}
