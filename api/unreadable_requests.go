package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"primegames/api/middleware"
)

// unreadableRequestProblem is the whole answer to a request net/http could not read, which
// middleware.ProblemListener sends in place of net/http's own plain-text refusal.
func unreadableRequestProblem(status int, reason string) []byte {
	code, known := codeOfStatus[status]
	if !known {
		code = "invalid"
	}
	detail := "The request's headers could not be read: a header holds a byte that headers may not (a control character such as NUL), or a line is not a header. Nothing was done."
	if reason != http.StatusText(status) {
		detail += " (" + reason + ")"
	}
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		code = "request_header_fields_too_large"
		detail = "The request's headers are larger than the server reads. Nothing was done."
	case http.StatusNotImplemented:
		code = "not_implemented"
		detail = "The request's Transfer-Encoding is not one the server reads. Nothing was done."
	}
	id := middleware.NewRequestID()
	p := newProblem(status, code, detail)
	p.RequestId = &id
	body, _ := json.Marshal(p)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	b.WriteString("Content-Type: " + problemContentType + "\r\n")
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	b.WriteString(middleware.RequestIDHeader + ": " + id + "\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n")
	b.Write(body)
	return b.Bytes()
}
