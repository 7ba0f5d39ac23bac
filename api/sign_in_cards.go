package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/domain/cards"
	"primegames/domain/scene/raster"
	"primegames/play"
)

// Children's sign-in codes and cards (issue 41): the rules are play/signin_codes.go's, the page's
// drawing domain/cards'.

// cardsPNGScale draws a page at 150 dots an inch (the scene's units are CSS pixels, 96 an inch).
const cardsPNGScale = 150.0 / 96

// noStore is the Cache-Control of what lets students in: no cache keeps it.
const noStore = "no-store"

// ListSignInCodes lists the classroom's students with their sign-in codes.
func (s *Server) ListSignInCodes(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	codes, err := s.play.SignInCodes(c.Request().Context(), classroom.ID)
	if err != nil {
		return err
	}
	body := openapi.SignInCodeList{Items: make([]openapi.SignInCode, len(codes))}
	for i, code := range codes {
		body.Items[i] = signInCodeBody(code)
	}
	c.Response().Header().Set("Cache-Control", noStore)
	return c.JSON(http.StatusOK, body)
}

// ResetSignInCode gives a student a new sign-in code.
func (s *Server) ResetSignInCode(c echo.Context, classroomID openapi.ClassroomID, studentID openapi.StudentID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	code, err := s.play.ResetSignInCode(c.Request().Context(), classroom.ID, studentID.String())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, signInCodeBody(*code))
}

// StudentSignIn signs a student in with the class code and their personal code; the guess guard
// counts a wrong pair against the address, the instance and the class code.
func (s *Server) StudentSignIn(c echo.Context) error {
	var req openapi.StudentSignInRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	var student *play.StudentRecord
	var classroom *play.Classroom
	var token string
	err := s.guesses.AttemptIn(c, play.NormalCode(req.ClassCode), func() (err error) {
		student, classroom, token, err = s.play.StudentSignIn(c.Request().Context(), req.ClassCode, req.Code)
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, openapi.JoinedClassroom{Student: studentBody(*student), ClassroomName: classroom.Name, Token: token})
}

// StudentSignOut ends the sign-in of the request's student token (play/signin_codes.go).
func (s *Server) StudentSignOut(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	if err := s.play.StudentSignOut(c.Request().Context(), principal); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", noStore)
	return c.NoContent(http.StatusNoContent)
}

// GetSignInCards draws a page of the classroom's sign-in cards.
func (s *Server) GetSignInCards(c echo.Context, classroomID openapi.ClassroomID, params openapi.GetSignInCardsParams) error {
	return s.signInCards(c, classroomID, paperOf(params.Paper), params.Page, false)
}

// GetSignInCardsPng is GetSignInCards as PNG.
func (s *Server) GetSignInCardsPng(c echo.Context, classroomID openapi.ClassroomID, params openapi.GetSignInCardsPngParams) error {
	return s.signInCards(c, classroomID, paperOf(params.Paper), params.Page, true)
}

// paperOf reads the paper parameter; absent is A4.
func paperOf[T ~string](p *T) string {
	if p == nil {
		return cards.A4.Name
	}
	return string(*p)
}

func (s *Server) signInCards(c echo.Context, classroomID openapi.ClassroomID, paperName string, pageParam *int, png bool) error {
	var paper cards.Paper
	switch paperName {
	case cards.A4.Name:
		paper = cards.A4
	case cards.Letter.Name:
		paper = cards.Letter
	default:
		return domain.Invalid("invalid", "paper is a4 or letter; it was %q.", paperName)
	}
	page := 1
	if pageParam != nil {
		page = *pageParam
	}
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	codes, err := s.play.SignInCodes(c.Request().Context(), classroom.ID)
	if err != nil {
		return err
	}
	pages := cards.Pages(len(codes))
	if page > pages {
		return domain.Errorf(domain.KindNotFound, "page_not_found", "The classroom's cards fill %d pages; there is no page %d.", pages, page)
	}
	signInAt := s.publicURL(c) + "/app/sign-in"
	p := cards.Page{Paper: paper, Classroom: classroom.Name, SignInAt: signInAt, Number: page, Of: pages}
	for _, code := range codes[min(len(codes), (page-1)*cards.PerPage):min(len(codes), page*cards.PerPage)] {
		// The codes ride in the fragment, which a browser keeps to itself: no server's log sees them.
		link := signInAt + "#class=" + url.QueryEscape(classroom.JoinCode) + "&code=" + url.QueryEscape(code.Code)
		p.Cards = append(p.Cards, cards.Card{Name: code.Student.Name, ClassCode: classroom.JoinCode, Code: code.Code, Link: link})
	}
	sc, err := p.Scene()
	if err != nil {
		return err
	}
	sc = lang(c).Scene(sc)
	h := c.Response().Header()
	h.Set("Cache-Control", noStore)
	h.Set("Content-Security-Policy", pictureSecurity) // an SVG opened by itself loads and runs nothing
	if page < pages {
		h.Set("Link", fmt.Sprintf(`<%s?paper=%s&page=%d>; rel="next"`, c.Request().URL.Path, paper.Name, page+1))
	}
	if !png {
		return sendWhole(c, http.StatusOK, svgType, p.SVG(sc))
	}
	doc, err := raster.PNG(sc, cardsPNGScale)
	if err != nil {
		return err
	}
	return sendWhole(c, http.StatusOK, pngType, doc)
}

// publicURL is the service's public base URL: PUBLIC_URL when set, else as this request reached it.
func (s *Server) publicURL(c echo.Context) string {
	if u := strings.TrimRight(s.cfg.OIDC.PublicURL, "/"); u != "" {
		return u
	}
	return c.Scheme() + "://" + c.Request().Host
}

func signInCodeBody(code play.SignInCode) openapi.SignInCode {
	return openapi.SignInCode{Student: studentBody(code.Student), Code: code.Code}
}

// EraseMyAccount erases the account of the account token, with its classrooms unless kept.
func (s *Server) EraseMyAccount(c echo.Context, params openapi.EraseMyAccountParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	keep := params.KeepClassrooms != nil && *params.KeepClassrooms
	n, err := s.play.EraseMyAccount(c.Request().Context(), principal, keep)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.ErasedAccount{ErasedClassrooms: n})
}
