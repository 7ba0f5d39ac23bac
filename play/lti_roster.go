package play

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"primegames/domain"
)

// Roster sync (LTI Names and Role Provisioning Services 2.0): a course's classroom takes in the
// course's learners before they launch. The tool asks the platform's token URL for an access token
// with a client assertion signed by its current key (1EdTech Security Framework §4.1, the OAuth 2
// client credentials grant with a JWT, RFC 7523), then reads the course's memberships URL, which
// the instructors' launches named. The HTTP is the caller's (LTIRosterExchange); here the
// assertion is signed and the members read: each Active learner becomes a student as at their
// first launch, under their given name; no email is kept, and the LMS user id only sealed, for the
// scores of grades (lti_grades.go).

// NRPS's scope and media type.
const (
	LTIScopeMemberships    = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	LTIMembershipMediaType = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
	// MaxLTIRosterMembers bounds the members one sync reads (the first page of the roster).
	MaxLTIRosterMembers = 500
)

// LTIRosterExchange does the HTTP of a roster sync: it trades the client assertion at the
// platform's token URL for an access token and reads the memberships URL with it, answering the
// membership container. Its errors are the platform's unavailability.
type LTIRosterExchange func(ctx context.Context, reg *LTIPlatform, assertion, membershipsURL string) ([]byte, error)

// LTIRosterSynced is what a roster sync did.
type LTIRosterSynced struct {
	Learners     int // the course's active learners read
	StudentCount int // the classroom's current students after
}

// SyncLTIRoster makes a student of every active learner of the course the classroom was made for.
func (s *Service) SyncLTIRoster(ctx context.Context, p Principal, classroomID string, exchange LTIRosterExchange) (*LTIRosterSynced, error) {
	if err := MayRunClassroom(p, classroomID); err != nil {
		return nil, err
	}
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	roster, err := s.store.LTIRosterOf(ctx, classroomID)
	if errors.Is(err, ErrNotFound) || err == nil && roster.MembershipsURL == "" {
		return nil, domain.Errorf(domain.KindConflict, "lti_roster_unavailable", "This classroom was not made by an LTI launch whose platform offers its roster (Names and Role Provisioning Services).")
	}
	if err != nil {
		return nil, err
	}
	reg, err := s.store.LTIPlatform(ctx, roster.PlatformID)
	if errors.Is(err, ErrNotFound) { // the platform deleted since the roster was read
		return nil, domain.Errorf(domain.KindConflict, "lti_roster_unavailable", "This classroom was not made by an LTI launch whose platform offers its roster (Names and Role Provisioning Services).")
	}
	if err != nil {
		return nil, err
	}
	assertion, err := s.ltiClientAssertion(ctx, reg)
	if err != nil {
		return nil, err
	}
	body, err := exchange(ctx, reg, assertion, roster.MembershipsURL)
	if err != nil {
		return nil, domain.Errorf(domain.KindUnavailable, "lti_platform_unavailable", "The platform did not give the course's roster (%v); try again shortly.", err)
	}
	var container struct {
		Context struct {
			ID string `json:"id"`
		} `json:"context"`
		Members []struct {
			UserID    string   `json:"user_id"`
			Status    string   `json:"status"`
			Roles     []string `json:"roles"`
			Name      string   `json:"name"`
			GivenName string   `json:"given_name"`
		} `json:"members"`
	}
	if err := json.Unmarshal(body, &container); err != nil ||
		subtle.ConstantTimeCompare(ltiKey(reg.ID, container.Context.ID), roster.ContextHash) != 1 {
		return nil, domain.Errorf(domain.KindUnavailable, "lti_platform_unavailable", "The platform's roster is not the course's membership container; try again shortly.")
	}
	synced := &LTIRosterSynced{}
	for i, m := range container.Members {
		if i == MaxLTIRosterMembers {
			break
		}
		if _, learner := ltiRole(m.Roles); !learner || m.UserID == "" || len(m.UserID) > ltiMaxField || m.Status != "" && m.Status != "Active" {
			continue
		}
		learnerHash := ltiKey(reg.ID, container.Context.ID, m.UserID)
		st, err := s.ltiStudent(ctx, classroomID, learnerHash, m.GivenName, m.Name)
		if err != nil && domain.ErrorCode(err) != "lti_student_removed" {
			return nil, err
		}
		if st != nil {
			synced.Learners++
			if err := s.keepLTISubject(ctx, learnerHash, m.UserID); err != nil {
				return nil, err
			}
		}
	}
	c, err := s.store.Classroom(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	synced.StudentCount = c.StudentCount
	return synced, nil
}

// ltiClientAssertion is the tool's JWT for the platform's token URL, signed by its current key:
// iss and sub the client id, aud the token URL, five minutes, a random jti.
func (s *Service) ltiClientAssertion(ctx context.Context, reg *LTIPlatform) (string, error) {
	keys, err := s.ltiToolKeys(ctx)
	if err != nil {
		return "", err
	}
	priv, err := s.openLTIToolKey(keys[0])
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: priv, KeyID: keys[0].KID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	now := s.now()
	claims := jwt.Claims{Issuer: reg.ClientID, Subject: reg.ClientID, Audience: jwt.Audience{reg.TokenURL},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(5 * time.Minute)), ID: randomCode()}
	return jwt.Signed(signer).Claims(claims).Serialize()
}
