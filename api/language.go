package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/play/i18n"
)

// langParam names the language where a request cannot carry an Accept-Language header (an <img>,
// a link, a printed card); it wins over the header.
const langParam = "lang"

// language chooses the language a request is answered in, carries the choice in the request's
// context (i18n.From) and says it in the answer: Content-Language, and Vary: Accept-Language so
// that a cache keeps one answer per language. A lang parameter the service speaks wins over
// Accept-Language; a request that names no language the service speaks is answered in its
// classroom's default language where a handler offers one (i18n.Default), else in English.
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
		c.SetRequest(r.WithContext(i18n.WithChoice(r.Context(), choice)))
		res := c.Response()
		res.Before(func() {
			h := res.Header()
			if res.Status != http.StatusNoContent {
				h.Set("Content-Language", choice.Lang.Code())
			}
			addVary(h, "Accept-Language")
		})
		return next(c)
	}
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

