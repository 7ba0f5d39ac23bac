package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
)

// GetReview answers with the expert's judgement of every action a person played in the game.
func (s *Server) GetReview(c echo.Context, id openapi.GameID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	review, err := s.play.Review(c.Request().Context(), id.String(), principal)
	if err != nil {
		return err
	}
	body := openapi.Review{Game: openapi.GameKind(review.Game), Final: review.Final,
		Entries: make([]openapi.ReviewEntry, len(review.Entries)), Seats: make([]openapi.ReviewSummary, len(review.Seats))}
	l := lang(c)
	for i, e := range review.Entries {
		missed := make([]openapi.MissedOpportunity, len(e.Missed))
		for j, m := range e.Missed {
			missed[j] = openapi.MissedOpportunity{Kind: m.Kind, Detail: l.Text(m.Detail), Action: m.Action}
		}
		body.Entries[i] = openapi.ReviewEntry{Seq: e.Seq, Seat: e.Seat, Played: e.Played, Best: e.Best,
			Explanation: l.Text(e.Explanation), Loss: e.Loss, Label: openapi.ReviewLabel(e.Label), Missed: missed}
	}
	for i, st := range review.Seats {
		body.Seats[i] = openapi.ReviewSummary{Seat: st.Seat, Judged: st.Judged, Forced: st.Forced, Accuracy: st.Accuracy,
			Labels: st.Labels, Missed: st.Missed, HintsUsed: st.HintsUsed}
	}
	return c.JSON(http.StatusOK, body)
}
