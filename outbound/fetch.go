package outbound

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Fetch gets a document (an LTI platform's key set) from a URL the allow list lets the sender
// reach, through the same guarded dialler as webhooks: a 200 answer of at most MaxResponse bytes;
// anything else is an error.
func (s *Sender) Fetch(ctx context.Context, raw string) ([]byte, error) {
	if err := s.CheckURL(raw); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "primegames-lti")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, describe(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.CopyN(io.Discard, resp.Body, s.cfg.MaxResponse)
		return nil, fmt.Errorf("the server answered %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.cfg.MaxResponse+1))
	if err != nil {
		return nil, describe(err)
	}
	if int64(len(body)) > s.cfg.MaxResponse {
		return nil, fmt.Errorf("the answer is larger than %d bytes", s.cfg.MaxResponse)
	}
	return body, nil
}
