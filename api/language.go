package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play/i18n"
)

// langParam names the language where a request cannot carry an Accept-Language header (an <img>,
// a link, a printed card); it wins over the header.
const langParam = "lang"

// language chooses the language a request is answered in, carries the choice in the request's
// context (i18n.From) and says it in the answer: Content-Language, and Vary: Accept-Language so
// that a cache keeps one answer per language. A lang parameter the service speaks wins over
// Accept-Language; a request that names no language the service speaks is answered in the default
// language of the classroom its path names (classroomLanguage), else in English.
func (s *Server) language(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		choice := &i18n.Choice{Lang: i18n.English}
		if wish := r.URL.Query().Get(langParam); wish != "" {
			choice.Lang, choice.Named = i18n.Match(wish)
		}
		if !choice.Named {
			choice.Lang, choice.Named = i18n.Match(r.Header.Get("Accept-Language"))
		}
		if !choice.Named {
			choice.Fallback = s.classroomLanguage(r)
		}
		ctx := i18n.WithChoice(r.Context(), choice)
		c.SetRequest(r.WithContext(ctx))
		res := c.Response()
		res.Before(func() {
			h := res.Header()
			if res.Status != http.StatusNoContent && h.Get("Content-Language") == "" { // a handler may say it
				// Nothing said yet is nothing said but in English: the classroom's language is
				// looked up only for answers with sentences.
				code := i18n.English.Code()
				if choice.Said() {
					code = i18n.From(ctx).Code()
				}
				h.Set("Content-Language", code)
			}
			addVary(h, "Accept-Language")
		})
		return next(c)
	}
}

// classroomLanguage finds the default language of the classroom a request is about, from its path
// (/v1/classrooms/{classroom_id}/…, /v1/games/{id}/…), for a request that names no language the
// service speaks; nil when the path names no classroom or game.
func (s *Server) classroomLanguage(r *http.Request) func() *i18n.Lang {
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/v1/"), "/", 3)
	if len(parts) < 2 {
		return nil
	}
	if _, err := uuid.Parse(parts[1]); err != nil {
		return nil
	}
	ctx, id := r.Context(), parts[0]+"/"+parts[1]
	var find func(context.Context, string) (*i18n.Lang, error)
	switch parts[0] {
	case "classrooms":
		find = s.play.ClassroomLanguage
	case "games":
		find = s.play.GameLanguage
	default:
		return nil
	}
	return func() *i18n.Lang {
		if l, ok := s.languages.get(id, time.Now()); ok {
			return l
		}
		l, err := find(ctx, parts[1])
		if err != nil {
			// The request meets the same store and says so itself; its words stay English.
			return nil
		}
		s.languages.put(id, l, time.Now())
		return l
	}
}

// languageCacheTTL is how long an instance keeps a classroom's default language: a teacher's
// change shows at once on the instance that made it (which forgets them all), within this on others.
const languageCacheTTL = 30 * time.Second

// languageCacheMax bounds the ids the cache holds; past it, it starts again empty.
const languageCacheMax = 10_000

// languageCache keeps the default languages found, by "classrooms/<id>" or "games/<id>" (nil for
// none), so that a game's refusals do not look its classroom's language up each time.
type languageCache struct {
	mu sync.Mutex
	at map[string]cachedLanguage
}

type cachedLanguage struct {
	lang  *i18n.Lang
	until time.Time
}

func (c *languageCache) get(key string, now time.Time) (*i18n.Lang, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.at[key]
	if !ok || now.After(e.until) {
		return nil, false
	}
	return e.lang, true
}

func (c *languageCache) put(key string, l *i18n.Lang, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at == nil || len(c.at) >= languageCacheMax {
		c.at = map[string]cachedLanguage{}
	}
	c.at[key] = cachedLanguage{lang: l, until: now.Add(languageCacheTTL)}
}

// forget drops every language kept, after a teacher changed one.
func (c *languageCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = nil
}

// addVary adds name to the response's Vary unless it is there already, keeping what others put.
func addVary(h http.Header, name string) {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); strings.EqualFold(f, name) || f == "*" {
				return
			}
		}
	}
	h.Add("Vary", name)
}

// lang is the language c's request is answered in.
func lang(c echo.Context) *i18n.Lang { return i18n.From(c.Request().Context()) }

// langIf is lang(c) when the answer has sentences, English (and no look-up of a classroom's
// language) when not.
func langIf(c echo.Context, words bool) *i18n.Lang {
	if !words {
		return i18n.English
	}
	return lang(c)
}

// translateProblem says p's title, detail and field messages in l; its code, type, status and facts
// stay as they are. A domain error's detail is rendered from the format and arguments it was made
// of; any other text is read back against the catalog (i18n.Lang.Text).
func translateProblem(p *openapi.Problem, err error, l *i18n.Lang) {
	if l.English() {
		return
	}
	p.Title = l.Text(p.Title)
	if p.Detail != nil {
		var de *domain.Error
		var r *refusal
		if errors.As(err, &de) && de.Format != "" && *p.Detail == de.Message {
			p.Detail = ptr(l.Sprintf(de.Format, de.Args...))
		} else if errors.As(err, &r) && r.format != "" && *p.Detail == r.detail {
			p.Detail = ptr(l.Sprintf(r.format, r.args...))
		} else {
			p.Detail = ptr(l.Text(*p.Detail))
		}
	}
	if p.Errors != nil {
		for i, f := range *p.Errors {
			(*p.Errors)[i].Message = l.Text(f.Message)
		}
	}
}

// translateDescriptions says the description of every legal action in actions (an engine's JSON
// array) in l; everything else of them stays as it is.
func translateDescriptions(actions json.RawMessage, l *i18n.Lang) (json.RawMessage, error) {
	if l.English() {
		return actions, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(actions, &list); err != nil {
		return nil, err
	}
	for _, a := range list {
		var d string
		if raw, ok := a["description"]; !ok || json.Unmarshal(raw, &d) != nil {
			continue
		}
		raw, err := json.Marshal(l.Text(d))
		if err != nil {
			return nil, err
		}
		a["description"] = raw
	}
	return json.Marshal(list)
}
