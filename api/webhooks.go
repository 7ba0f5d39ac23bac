package api

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
	"primegames/play/i18n"
)

// CreateWebhook subscribes the caller's backend to signed webhooks; the answer holds the secret.
func (s *Server) CreateWebhook(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	var req openapi.CreateWebhookRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	in := play.NewWebhookRequest{Scope: play.WebhookScope(req.Scope), URL: req.Url, Address: c.RealIP()}
	if req.GameId != nil {
		in.GameID = req.GameId.String()
	}
	if req.ClassroomId != nil {
		in.ClassroomID = req.ClassroomId.String()
	}
	for _, e := range deref(req.Events) {
		in.Events = append(in.Events, string(e))
	}
	w, secret, err := s.play.CreateWebhook(c.Request().Context(), principal, in)
	if err != nil {
		return err
	}
	body := webhookBody(w, lang(c))
	c.Response().Header().Set("Location", "/v1/webhooks/"+w.ID)
	return c.JSON(http.StatusCreated, openapi.CreatedWebhook{
		Id: body.Id, Scope: body.Scope, GameId: body.GameId, ClassroomId: body.ClassroomId, Seat: body.Seat, Url: body.Url,
		Events: body.Events, CreatedAt: body.CreatedAt, Failures: body.Failures, Status: body.Status, Dropped: body.Dropped, Secret: secret,
	})
}

// ListWebhooks lists the caller's subscriptions with how their deliveries go.
func (s *Server) ListWebhooks(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	list, err := s.play.Webhooks(c.Request().Context(), principal)
	if err != nil {
		return err
	}
	body := openapi.WebhookList{Webhooks: make([]openapi.Webhook, len(list))}
	for i := range list {
		body.Webhooks[i] = webhookBody(&list[i], lang(c))
	}
	return c.JSON(http.StatusOK, body)
}

// DeleteWebhook deletes one of the caller's subscriptions.
func (s *Server) DeleteWebhook(c echo.Context, id uuid.UUID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	if err := s.play.DeleteWebhook(c.Request().Context(), principal, id.String()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// ResumeWebhook resumes one of the caller's suspended subscriptions under the caller's token.
func (s *Server) ResumeWebhook(c echo.Context, id openapi.WebhookID) error {
	return s.reviveWebhook(c, id, s.play.ResumeWebhook)
}

// RetryWebhook makes one of the caller's subscriptions try its waiting deliveries now.
func (s *Server) RetryWebhook(c echo.Context, id openapi.WebhookID) error {
	return s.reviveWebhook(c, id, s.play.RetryWebhook)
}

func (s *Server) reviveWebhook(c echo.Context, id uuid.UUID, revive func(context.Context, play.Principal, string) (*play.Webhook, error)) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	w, err := revive(c.Request().Context(), principal, id.String())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, webhookBody(w, lang(c)))
}

// RotateWebhookSecret gives one of the caller's subscriptions a new secret; the old one signs too
// for a while.
func (s *Server) RotateWebhookSecret(c echo.Context, id openapi.WebhookID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	rotated, err := s.play.RotateWebhookSecret(c.Request().Context(), principal, id.String())
	if err != nil {
		return err
	}
	body := webhookBody(rotated.Webhook, lang(c))
	return c.JSON(http.StatusOK, openapi.RotatedWebhookSecret{
		Id: body.Id, Scope: body.Scope, GameId: body.GameId, ClassroomId: body.ClassroomId, Seat: body.Seat, Url: body.Url,
		Events: body.Events, CreatedAt: body.CreatedAt, Failures: body.Failures, Status: body.Status, Dropped: body.Dropped,
		LastAttemptAt: body.LastAttemptAt, LastSuccessAt: body.LastSuccessAt, LastError: body.LastError, LastDroppedAt: body.LastDroppedAt,
		DisabledAt: body.DisabledAt, DisabledReason: body.DisabledReason,
		Secret: rotated.Secret, PreviousSecretExpiresAt: rotated.PreviousSecretExpires,
	})
}

// webhookBody is w as the contract writes it, what its deliveries came to (last_error,
// disabled_reason: sentences its owner reads) said in l.
func webhookBody(w *play.Webhook, l *i18n.Lang) openapi.Webhook {
	say := func(s *string) *string {
		if s == nil {
			return nil
		}
		return ptr(l.Text(*s))
	}
	body := openapi.Webhook{
		Id: mustUUID(w.ID), Scope: openapi.WebhookScope(w.Scope), Seat: w.Seat, Url: w.URL, CreatedAt: w.CreatedAt,
		Status: openapi.WebhookStatus(w.Status), Dropped: int(w.Dropped), LastDroppedAt: w.LastDroppedAt,
		Failures: w.Failures, LastAttemptAt: w.LastAttemptAt, LastSuccessAt: w.LastSuccessAt, LastError: say(w.LastError),
		DisabledAt: w.DisabledAt, DisabledReason: say(w.DisabledReason), Events: make([]openapi.WebhookEventType, len(w.Events)),
	}
	if w.GameID != nil {
		body.GameId = ptr(mustUUID(*w.GameID))
	}
	if w.ClassroomID != nil {
		body.ClassroomId = ptr(mustUUID(*w.ClassroomID))
	}
	for i, e := range w.Events {
		body.Events[i] = openapi.WebhookEventType(e)
	}
	return body
}
