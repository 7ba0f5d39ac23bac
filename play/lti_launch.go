package play

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"primegames/domain"
	"primegames/domain/names"
)

// ltiClaims are the claims of a launch's ID token the service reads (Security Framework §5.1.2,
// LTI Core §5.3–5.4). Of the person, only the name is read; email and the like are not.
type ltiClaims struct {
	Issuer       string          `json:"iss"`
	Subject      string          `json:"sub"`
	Audience     json.RawMessage `json:"aud"`
	AZP          string          `json:"azp"`
	Expiry       *json.Number    `json:"exp"`
	IssuedAt     *json.Number    `json:"iat"`
	Nonce        string          `json:"nonce"`
	Name         string          `json:"name"`
	GivenName    string          `json:"given_name"`
	MessageType  string          `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version      string          `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	DeploymentID string          `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	Roles        []string        `json:"https://purl.imsglobal.org/spec/lti/claim/roles"`
	Context      *struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		Label string `json:"label"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/context"`
	NRPS *struct {
		MembershipsURL string `json:"context_memberships_url"`
	} `json:"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"`
	AGS *agsClaim `json:"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"`
}

// membershipsURL is the course's roster URL the launch names, "" for none (or one too long).
func (c ltiClaims) membershipsURL() string {
	if c.NRPS == nil || len(c.NRPS.MembershipsURL) > ltiMaxURL {
		return ""
	}
	return c.NRPS.MembershipsURL
}

func (c ltiClaims) audiences() ([]string, bool) {
	var one string
	if json.Unmarshal(c.Audience, &one) == nil {
		return []string{one}, true
	}
	var many []string
	if json.Unmarshal(c.Audience, &many) == nil {
		return many, true
	}
	return nil, false
}

func numericDate(n *json.Number) (time.Time, bool) {
	if n == nil {
		return time.Time{}, false
	}
	f, err := n.Float64()
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}

// check verifies the claims of a launch whose signature the HTTP layer verified: the issuer and
// audience are the registration's (Security Framework §5.1.3: aud holds the client id; with several
// audiences, azp is the client id), exp and iat by the service's clock within LTILeeway, the nonce
// the login's, the deployment registered, a resource link launch of LTI 1.3.0.
func (c ltiClaims) check(reg *LTIPlatform, login *LTILogin, now time.Time) error {
	if c.Issuer != reg.Issuer {
		return ltiTokenRefused("its issuer is not the registered platform's")
	}
	aud, ok := c.audiences()
	if !ok || !slices.Contains(aud, reg.ClientID) || (len(aud) > 1 && c.AZP != reg.ClientID) || (c.AZP != "" && c.AZP != reg.ClientID) {
		return ltiTokenRefused("its audience is not this tool's client_id")
	}
	exp, ok := numericDate(c.Expiry)
	if !ok || !now.Before(exp.Add(LTILeeway)) {
		return ltiTokenRefused("it has expired")
	}
	iat, ok := numericDate(c.IssuedAt)
	if !ok || iat.After(now.Add(LTILeeway)) || now.Sub(iat) > LTILoginLifetime+LTILeeway {
		return ltiTokenRefused("its issue time is missing, in the future or too long ago")
	}
	if c.Nonce == "" || subtle.ConstantTimeCompare(hashToken(c.Nonce), login.NonceHash) != 1 {
		return ltiTokenRefused("its nonce is not this launch's")
	}
	if c.Subject == "" || len(c.Subject) > ltiMaxField {
		return ltiTokenRefused("it names no user (sub)")
	}
	if c.DeploymentID == "" || !slices.Contains(reg.DeploymentIDs, c.DeploymentID) {
		return domain.Errorf(domain.KindForbidden, "lti_deployment_unknown", "This launch's deployment is not registered for the platform; the operator adds its deployment id to the registration.")
	}
	if c.MessageType != "LtiResourceLinkRequest" || c.Version != "1.3.0" {
		return domain.Invalid("lti_message_unsupported", "This tool takes resource link launches (LtiResourceLinkRequest) of LTI 1.3.0 only.")
	}
	if c.Context == nil || c.Context.ID == "" || len(c.Context.ID) > ltiMaxField {
		return domain.Invalid("lti_context_missing", "This launch names no course (context claim): open the tool from a course.")
	}
	return nil
}

// ltiRole is what a launch's roles make of the person: a teacher when they hold the context role
// Instructor or Administrator (or a sub-role of Instructor, such as TeachingAssistant), else a
// student when they hold Learner (or a sub-role of it); other roles (Mentor, ContentDeveloper, the
// institution's roles alone) launch nothing. The short forms LTI 1.1 used ("Instructor") count too.
func ltiRole(roles []string) (teacher, learner bool) {
	for _, r := range roles {
		switch {
		case r == ltiRoleMembership+"#Instructor", r == ltiRoleMembership+"#Administrator", r == "Instructor",
			strings.HasPrefix(r, ltiRoleMembership+"/Instructor#"):
			teacher = true
		case r == ltiRoleMembership+"#Learner", r == "Learner", strings.HasPrefix(r, ltiRoleMembership+"/Learner#"):
			learner = true
		}
	}
	return teacher, learner && !teacher
}

// LTIAccountIssuer is the issuer of the accounts an LTI platform's launches sign into.
func LTIAccountIssuer(platformID string) string { return "lti:" + platformID }

// ltiKey hashes the parts of an LMS's identifier of something (a course, a learner), so that no
// LMS id is kept as it is.
func ltiKey(parts ...string) []byte {
	return hashToken("primegames lti\x00" + strings.Join(parts, "\x00"))
}

// LTILaunch makes what a verified launch opens, from the ID token's claims (a JSON object): an
// instructor's account and the course's classroom, or a learner's student; it answers the one-time
// code the landing page trades for a token.
func (s *Service) LTILaunch(ctx context.Context, reg *LTIPlatform, login *LTILogin, claimsJSON []byte) (*LTILaunched, error) {
	var c ltiClaims
	dec := json.NewDecoder(strings.NewReader(string(claimsJSON)))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return nil, ltiTokenRefused("its claims are not the JSON an LTI launch carries")
	}
	if err := c.check(reg, login, s.now()); err != nil {
		return nil, err
	}
	teacher, learner := ltiRole(c.Roles)
	contextHash := ltiKey(reg.ID, c.Context.ID)
	var h LTIHandover
	switch {
	case teacher:
		acc, err := s.store.UpsertAccount(ctx, LTIAccountIssuer(reg.ID), c.Subject, displayName(c.Name), s.now())
		if err != nil {
			return nil, err
		}
		classroomID, err := s.ltiClassroom(ctx, reg.ID, contextHash, acc.ID, c.Context.Title, c.Context.Label, c.membershipsURL())
		if err != nil {
			return nil, err
		}
		owner, err := s.store.CoTeacherStore.ClassroomOwner(ctx, classroomID)
		if err != nil {
			return nil, err
		}
		if owner != acc.ID {
			// Another instructor of the course: a co-teacher of its classroom.
			err := s.store.LTIGradeStore.EnsureLTICoTeacher(ctx, classroomID, acc.ID, s.now(), MaxCoTeachers)
			if errors.Is(err, ErrTaken) {
				return nil, domain.Errorf(domain.KindConflict, "too_many_co_teachers", "This course's classroom has %d co-teachers already, the most it may; its owner removes one first.", MaxCoTeachers)
			}
			if err != nil {
				return nil, err
			}
		}
		if svc := c.gradeService(); svc != nil {
			if err := s.store.LTIGradeStore.SaveLTIGradeService(ctx, reg.ID, contextHash, *svc); err != nil {
				return nil, err
			}
		}
		h = LTIHandover{AccountID: acc.ID, ClassroomID: classroomID}
	case learner:
		classroomID, err := s.store.LTIClassroom(ctx, reg.ID, contextHash)
		if errors.Is(err, ErrNotFound) {
			return nil, domain.Errorf(domain.KindConflict, "lti_classroom_not_ready", "This course has no classroom yet: an instructor opens the tool from the course first.")
		}
		if err != nil {
			return nil, err
		}
		learnerHash := ltiKey(reg.ID, c.Context.ID, c.Subject)
		st, err := s.ltiStudent(ctx, classroomID, learnerHash, c.GivenName, c.Name)
		if err != nil {
			return nil, err
		}
		if err := s.keepLTISubject(ctx, learnerHash, c.Subject); err != nil {
			return nil, err
		}
		h = LTIHandover{ClassroomID: classroomID, StudentID: st.ID}
	default:
		return nil, domain.Errorf(domain.KindForbidden, "lti_role_unsupported", "This tool opens for a course's instructors and learners only.")
	}
	code := randomCode()
	now := s.now()
	if err := s.store.SaveLTIHandover(ctx, hashToken(code), h, now, now.Add(LTIHandoverLifetime)); err != nil {
		return nil, err
	}
	return &LTILaunched{Code: code, Teacher: teacher}, nil
}

// ltiClassroom is the course's classroom, made at its first instructor's launch, named after the
// course's title (else its label).
func (s *Service) ltiClassroom(ctx context.Context, platformID string, contextHash []byte, accountID, title, label, membershipsURL string) (string, error) {
	name, err := names.Classroom.Enforce(truncateRunes(strings.TrimSpace(title), 80))
	if err != nil {
		name, err = names.Classroom.Enforce(truncateRunes(strings.TrimSpace(label), 80))
	}
	if err != nil {
		name = "Course"
	}
	_, teacherHash := NewToken(TokenTeacher) // the account token opens it; this one is never shown
	var id string
	err = withNewJoinCode(func(code string) (err error) {
		id, err = s.store.EnsureLTIClassroom(ctx, platformID, contextHash, accountID, name, code, teacherHash, membershipsURL)
		return err
	})
	return id, err
}

// ltiStudent is the learner's student in the classroom, made at their first launch under their
// given name (else their name, else "Student"), numbered when another student has it.
func (s *Service) ltiStudent(ctx context.Context, classroomID string, learnerHash []byte, givenName, name string) (*StudentRecord, error) {
	base := "Student"
	for _, n := range []string{givenName, name} {
		if enforced, err := names.Person.Enforce(truncateRunes(strings.TrimSpace(n), 36)); err == nil {
			base = enforced
			break
		}
	}
	_, hash := NewToken(TokenStudent) // replaced at the hand-over, which shows the new one
	for i := 1; i <= 20; i++ {
		n := base
		if i > 1 {
			n = fmt.Sprintf("%s %d", base, i)
		}
		st, removed, err := s.store.EnsureLTIStudent(ctx, classroomID, learnerHash, n, names.Key(n), hash)
		if errors.Is(err, ErrTaken) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if removed {
			return nil, domain.Errorf(domain.KindForbidden, "lti_student_removed", "Your teacher took you out of this classroom; ask them to add you again.")
		}
		return st, nil
	}
	return nil, studentNameTaken(base)
}

// LTISignedIn is what a launch's one-time code hands over: an instructor's account token (named
// "LTI launch", LTITokenLifetime) or a learner's new student token, and the classroom.
type LTISignedIn struct {
	Teacher   bool
	Token     string
	ExpiresAt *time.Time // an account token's
	TokenID   string     // an account token's id, which revokes it (DELETE /v1/me/tokens/{token_id})
	Classroom Classroom
	Account   *Account
	Student   *StudentRecord
}

// TakeLTIHandover trades a launch's one-time code, once, for a token: an instructor gets a new
// account token; a learner a new student token (the one they held before stops working, as when
// the teacher resets it).
func (s *Service) TakeLTIHandover(ctx context.Context, code string) (*LTISignedIn, error) {
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	refused := domain.Invalid("lti_handover_invalid", "This hand-over code is unknown, was used already or has expired (after 2 minutes): open the tool from the LMS again.")
	if code == "" || len(code) > 200 {
		return nil, refused
	}
	h, err := s.store.TakeLTIHandover(ctx, hashToken(code), s.now())
	if errors.Is(err, ErrNotFound) {
		return nil, refused
	}
	if err != nil {
		return nil, err
	}
	c, err := s.store.Classroom(ctx, h.ClassroomID)
	if err != nil {
		return nil, err
	}
	out := &LTISignedIn{Classroom: *c, Teacher: h.AccountID != ""}
	if out.Teacher {
		acc, err := s.store.Account(ctx, h.AccountID)
		if err != nil {
			return nil, err
		}
		token, info, err := s.newAccountToken(ctx, acc.ID, "LTI launch", LTITokenLifetime)
		if err != nil {
			return nil, err
		}
		out.Token, out.ExpiresAt, out.TokenID, out.Account = token, &info.ExpiresAt, info.ID, acc
		return out, nil
	}
	token, hash := NewToken(TokenStudent)
	st, err := s.store.SetLTIStudentToken(ctx, h.StudentID, hash)
	if errors.Is(err, ErrNotFound) {
		return nil, domain.Errorf(domain.KindForbidden, "lti_student_removed", "Your teacher took you out of this classroom; ask them to add you again.")
	}
	if err != nil {
		return nil, err
	}
	out.Token, out.Student = token, st
	return out, nil
}

// randomCode is 256 random bits, base64url: a state, a nonce, a one-time code.
func randomCode() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
