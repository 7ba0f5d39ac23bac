package outbound

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// MaxRequestAnswer bounds the answer Request reads: a course's roster of some hundred members is
// larger than a webhook receiver's answer may be.
const MaxRequestAnswer = 1 << 20

// Request sends a request (an LTI platform's key set, token or roster) to a URL the allow list
// lets the sender reach, through the same guarded dialler as webhooks, and answers the body of a
// 2xx answer (an LTI line item is answered 201, a score may be 204) of at most MaxRequestAnswer
// bytes; anything else is an error (a StatusError when the server answered another status).
func (s *Sender) Request(ctx context.Context, method, raw string, header http.Header, body []byte) ([]byte, error) {
	if err := s.CheckURL(raw); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, raw, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("User-Agent", "primegames-lti")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, describe(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		_, _ = io.CopyN(io.Discard, resp.Body, s.cfg.MaxResponse)
		return nil, StatusError(resp.StatusCode)
	}
	answer, err := io.ReadAll(io.LimitReader(resp.Body, MaxRequestAnswer+1))
	if err != nil {
		return nil, describe(err)
	}
	if len(answer) > MaxRequestAnswer {
		return nil, fmt.Errorf("the answer is larger than %d bytes", MaxRequestAnswer)
	}
	return answer, nil
}

// StatusError is a server's answer of a status that is not 2xx.
type StatusError int

func (e StatusError) Error() string { return fmt.Sprintf("the server answered %d", int(e)) }

// HTTPStatus is the status.
func (e StatusError) HTTPStatus() int { return int(e) }
