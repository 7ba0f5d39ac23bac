package play

import (
	"encoding/json"
	"testing"
	"time"

	"primegames/domain"
)

// The roles a launch maps: Instructor and Administrator (and Instructor's sub-roles) teach, Learner
// (and its sub-roles) learns, a teacher who is also a learner teaches, anything else neither.
func TestLTIRoles(t *testing.T) {
	t.Parallel()
	const m = "http://purl.imsglobal.org/vocab/lis/v2/membership"
	for _, tc := range []struct {
		roles            []string
		teacher, learner bool
	}{
		{[]string{m + "#Instructor"}, true, false},
		{[]string{m + "#Administrator"}, true, false},
		{[]string{m + "/Instructor#TeachingAssistant"}, true, false},
		{[]string{"Instructor"}, true, false},
		{[]string{m + "#Learner"}, false, true},
		{[]string{m + "/Learner#NonCreditLearner"}, false, true},
		{[]string{m + "#Learner", m + "#Instructor"}, true, false},
		{[]string{m + "#Mentor"}, false, false},
		{[]string{"http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"}, false, false},
		{nil, false, false},
	} {
		if teacher, learner := ltiRole(tc.roles); teacher != tc.teacher || learner != tc.learner {
			t.Errorf("%v: teacher %v learner %v, want %v %v", tc.roles, teacher, learner, tc.teacher, tc.learner)
		}
	}
}

// A launch's claims are checked by the clock given, with a minute's leeway on exp and iat.
func TestLTIClaimsCheckTimes(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	reg := &LTIPlatform{ID: "p", Issuer: "https://lms.example", ClientID: "c", DeploymentIDs: []string{"d"}}
	login := &LTILogin{PlatformID: "p", NonceHash: hashToken("n")}
	claims := func(exp, iat time.Time) ltiClaims {
		raw, _ := json.Marshal(map[string]any{
			"iss": reg.Issuer, "sub": "s", "aud": []string{"c", "other"}, "azp": "c", "exp": exp.Unix(), "iat": iat.Unix(), "nonce": "n",
			ltiClaimMessageType: "LtiResourceLinkRequest", ltiClaimVersion: "1.3.0", ltiClaimDeploymentID: "d",
			ltiClaimContext: map[string]string{"id": "course"},
		})
		var c ltiClaims
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		name     string
		exp, iat time.Time
		ok       bool
	}{
		{"fresh", now.Add(time.Minute), now, true},
		{"expired within the leeway", now.Add(-30 * time.Second), now.Add(-5 * time.Minute), true},
		{"expired beyond the leeway", now.Add(-2 * time.Minute), now.Add(-5 * time.Minute), false},
		{"issued in the future", now.Add(10 * time.Minute), now.Add(2 * time.Minute), false},
		{"issued too long ago", now.Add(time.Hour), now.Add(-20 * time.Minute), false},
	} {
		err := claims(tc.exp, tc.iat).check(reg, login, now)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
		if err != nil && domain.ErrorCode(err) != "lti_id_token_invalid" {
			t.Errorf("%s: code %q", tc.name, domain.ErrorCode(err))
		}
	}
}
