package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// seedDemo creates, through the API at base, a classroom with four students and one game of each
// kind, and describes them as shell lines: the tokens, join code and ids a developer needs to try
// the API.
func seedDemo(ctx context.Context, base, adminToken string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	call := func(method, path, token string, body, into any) error {
		return callAPI(ctx, method, base+path, token, body, into)
	}
	var class struct {
		Classroom struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			JoinCode string `json:"join_code"`
		} `json:"classroom"`
		TeacherToken string `json:"teacher_token"`
	}
	if err := call("POST", "/v1/classrooms", adminToken, map[string]string{"name": "Demo class"}, &class); err != nil {
		return "", err
	}
	names := []string{"Ada", "Ben", "Cy", "Dee"}
	ids, tokens := map[string]string{}, map[string]string{}
	for _, name := range names {
		var joined struct {
			Student struct {
				ID string `json:"id"`
			} `json:"student"`
			Token string `json:"token"`
		}
		if err := call("POST", "/v1/classrooms/join", "", map[string]string{"join_code": class.Classroom.JoinCode, "name": name}, &joined); err != nil {
			return "", err
		}
		ids[name], tokens[name] = joined.Student.ID, joined.Token
	}
	gameIDs := map[string]string{}
	for _, g := range []struct{ kind, first, second string }{{"prime-climb", "Ada", "Ben"}, {"primed", "Cy", "Dee"}} {
		var created struct {
			Games []struct {
				ID string `json:"id"`
			} `json:"games"`
		}
		req := map[string]any{"game": g.kind, "group_size": 2, "student_ids": []string{ids[g.first], ids[g.second]}}
		if err := call("POST", "/v1/classrooms/"+class.Classroom.ID+"/games", class.TeacherToken, req, &created); err != nil {
			return "", err
		}
		if len(created.Games) != 1 {
			return "", fmt.Errorf("creating a %s game made %d games", g.kind, len(created.Games))
		}
		gameIDs[g.kind] = created.Games[0].ID
	}
	// Shell lines, to paste before trying the commands of README.md and docs/.
	var b strings.Builder
	fmt.Fprintf(&b, "# classroom %q with students Ada, Ben, Cy and Dee (tokens are shown once; kept here)\n", class.Classroom.Name)
	fmt.Fprintf(&b, "export CLASS=%s TEACHER=%s CODE=%s\n", class.Classroom.ID, class.TeacherToken, class.Classroom.JoinCode)
	fmt.Fprint(&b, "export")
	for _, name := range names {
		fmt.Fprintf(&b, " %s=%s", strings.ToUpper(name), tokens[name])
	}
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "# a Prime Climb game of Ada and Ben, a Primed game of Cy and Dee\n")
	fmt.Fprintf(&b, "export CLIMB_GAME=%s PRIMED_GAME=%s\n", gameIDs["prime-climb"], gameIDs["primed"])
	return b.String(), nil
}

// callAPI sends body as JSON and decodes a 2xx answer into into; any other answer is an error
// quoting the problem document.
func callAPI(ctx context.Context, method, url, token string, body, into any) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s = %d: %s", method, url, resp.StatusCode, oneLine(string(answer)))
	}
	return json.Unmarshal(answer, into)
}
