package play

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"primegames/domain"
)

// Grades to the LMS (issue 42 item 4, 1EdTech LTI Assignment and Grade Services 2.0). A course's
// launches name its AGS endpoint (the line items URL and the scopes granted), kept per course; a
// learner's launch (or the roster) names the learner's LMS user id, which each score must carry:
// kept sealed, never shown or logged. An assignment of such a classroom with gradebook on is a
// column of the course's gradebook: the worker makes its line item (label the title, scoreMaximum
// the games asked, resourceId the assignment's id) and, each time a student's games done change
// (the store queues it in the transaction that ends the game), posts the student's score
// (scoreGiven the games done, scoreMaximum the games asked; Completed once done; FullyGraded). Each
// send asks the platform's token URL for an access token (the client credentials grant with the
// tool's signed assertion, as the roster does) and runs outside any game's transaction, with
// retries and backoff, at most LTIGradesPerPlatform in flight per platform on all instances, each
// claim taking every platform's first send before any's second. A platform's refusal is a warning
// in the log and the assignment's gradebook status (failing, with the code), never an error.

// AGS scopes, media types and the worker's bounds.
const (
	LTIScopeLineItem     = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	LTIScopeScore        = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	LTILineItemMediaType = "application/vnd.ims.lis.v2.lineitem+json"
	LTIScoreMediaType    = "application/vnd.ims.lis.v1.score+json"
	// LTIGradesPerPlatform bounds the sends to one platform in flight at once, on all instances.
	LTIGradesPerPlatform = 2
	// LTIGradesBatch bounds the sends one pass of the worker makes (at once) on an instance.
	LTIGradesBatch = 8
	// LTIGradeMaxAttempts bounds the attempts of one send (about a day of backoff); then it is
	// dropped and the assignment's gradebook stays failing until the next change sends again.
	LTIGradeMaxAttempts = 12
	LTIGradeRetryFirst  = 30 * time.Second
	LTIGradeRetryMax    = time.Hour
	ltiGradeLease       = time.Minute
	ltiGradePoll        = 2 * time.Second
)

// Gradebook statuses of an assignment.
const (
	GradebookPending = "pending" // sends queued (the line item, or scores)
	GradebookSynced  = "synced"  // nothing queued, the last send succeeded
	GradebookFailing = "failing" // the last send failed (Error, ErrorStatus say how)
)

// AssignmentGradebook is how an assignment's gradebook column stands.
type AssignmentGradebook struct {
	Status      string
	Error       string // the last failure's code, "" when the last send succeeded
	ErrorStatus int    // the platform's HTTP status of that failure, 0 for none
}

// LTIGradeService is a course's AGS endpoint, from its launches.
type LTIGradeService struct {
	LineItemsURL string
	Scopes       []string
}

// LTIGradeJob is a send the worker claimed: a line item (StudentID "") or a student's score.
type LTIGradeJob struct {
	ID           int64
	Version      int
	Attempts     int // counting this one
	AssignmentID string
	StudentID    string
	PlatformID   string
	Title        string
	Games        int
	LineItemsURL string
	LineItemURL  string
	GamesDone    int
	// LearnerHash and SealedSubject are the student's LMS user id, sealed; nil when the student
	// has none kept (made by hand, removed).
	LearnerHash   []byte
	SealedSubject []byte
}

// LTIGradeOutcome is what became of a send.
type LTIGradeOutcome struct {
	LineItemURL string    // the line item made
	Error       string    // the failure's code, "" on success
	ErrorStatus int       // the platform's HTTP status, 0 for none
	RetryAt     time.Time // when to try again; zero with Error: given up
	Drop        bool      // nothing to send (the student has no LMS id): the job goes quietly
}

// LTIGradeStore keeps the courses' AGS endpoints, the learners' sealed LMS ids and the sends.
type LTIGradeStore interface {
	// SaveLTIGradeService keeps the course's AGS endpoint.
	SaveLTIGradeService(ctx context.Context, platformID string, contextHash []byte, svc LTIGradeService) error
	// LTIGradeServiceOf is the AGS endpoint of the course the classroom was made for; ErrNotFound
	// when the classroom is no course's.
	LTIGradeServiceOf(ctx context.Context, classroomID string) (*LTIGradeService, error)
	// SetLTIStudentSubject keeps the learner's sealed LMS user id.
	SetLTIStudentSubject(ctx context.Context, learnerHash, sealed []byte) error
	// SetAssignmentGradebook turns an assignment's gradebook column on (queueing its line item
	// and the scores of the students who have finished games) or off (dropping what is queued);
	// ErrNotFound when the classroom has no such assignment.
	SetAssignmentGradebook(ctx context.Context, classroomID, assignmentID string, on bool) error
	// ClaimLTIGrades leases sends due at now until now+lease, at most perPlatform in flight per
	// platform (those leased by any worker included), every platform's first before any's second,
	// limit in all, counting the attempt; a score waits for its line item.
	ClaimLTIGrades(ctx context.Context, now time.Time, lease time.Duration, perPlatform, limit int) ([]LTIGradeJob, error)
	// LTIGradeDone records a send's outcome: on success the job goes (unless a change came while
	// it was in flight: then it is due again), on failure it waits until RetryAt (or goes); the
	// assignment's gradebook error is set or cleared.
	LTIGradeDone(ctx context.Context, job *LTIGradeJob, outcome LTIGradeOutcome) error
	// RequeueLTIGrades queues again, when the assignment is a column, its line item (to update
	// its label and scoreMaximum) and the scores of the students with games done.
	RequeueLTIGrades(ctx context.Context, assignmentID string) error
	// EnsureLTICoTeacher makes the account a co-teacher of the classroom (nothing when it owns or
	// co-teaches it); ErrTaken when the classroom has max co-teachers.
	EnsureLTICoTeacher(ctx context.Context, classroomID, accountID string, now time.Time, max int) error
}

// LTIGradeTransport does the HTTP of the grades: an access token from the platform's token URL
// for the tool's assertion and a scope, and a request (POST, PUT) of a body of a media type with
// that token, answering the answer's body. An error that has an HTTPStatus() int method says the platform's
// answer.
type LTIGradeTransport interface {
	AccessToken(ctx context.Context, reg *LTIPlatform, assertion, scope string) (string, error)
	Send(ctx context.Context, method, url, mediaType, accessToken string, body []byte) ([]byte, error)
}

// agsClaim is a launch's AGS endpoint claim.
type agsClaim struct {
	Scope     []string `json:"scope"`
	LineItems string   `json:"lineitems"`
}

func (c ltiClaims) gradeService() *LTIGradeService {
	if c.AGS == nil || c.AGS.LineItems == "" || len(c.AGS.LineItems) > ltiMaxURL || len(c.AGS.Scope) > 10 {
		return nil
	}
	return &LTIGradeService{LineItemsURL: c.AGS.LineItems, Scopes: c.AGS.Scope}
}

func (s *Service) ltiSubjectAEAD() (cipher.AEAD, error) {
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(deriveKey32(s.lti.SealingKey, "primegames lti learner ids"))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithRandomNonce(block)
}

// keepLTISubject seals and keeps a learner's LMS user id, which scores carry.
func (s *Service) keepLTISubject(ctx context.Context, learnerHash []byte, subject string) error {
	aead, err := s.ltiSubjectAEAD()
	if err != nil {
		return err
	}
	return s.store.LTIGradeStore.SetLTIStudentSubject(ctx, learnerHash, aead.Seal(nil, nil, []byte(subject), learnerHash))
}

// SetAssignmentGradebook makes an assignment a column of the course's gradebook, or stops sending
// its scores (the column stays in the LMS). The caller checked that p teaches the classroom.
func (s *Service) SetAssignmentGradebook(ctx context.Context, classroomID, assignmentID string, on bool) error {
	if on {
		if err := s.GradebookAvailable(ctx, classroomID); err != nil {
			return err
		}
	}
	err := s.store.LTIGradeStore.SetAssignmentGradebook(ctx, classroomID, assignmentID, on)
	if errors.Is(err, ErrNotFound) {
		return assignmentNotFound()
	}
	return err
}

// GradebookAvailable says whether the classroom's assignments may be gradebook columns: the
// classroom was made by a launch whose platform grants the scopes lineitem and score.
func (s *Service) GradebookAvailable(ctx context.Context, classroomID string) error {
	if err := s.ltiOn(); err != nil {
		return err
	}
	svc, err := s.store.LTIGradeStore.LTIGradeServiceOf(ctx, classroomID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	if err != nil || svc.LineItemsURL == "" || !slices.Contains(svc.Scopes, LTIScopeLineItem) || !slices.Contains(svc.Scopes, LTIScopeScore) {
		return domain.Errorf(domain.KindConflict, "lti_gradebook_unavailable", "This classroom was not made by an LTI launch whose platform lets the tool make gradebook columns and post scores (Assignment and Grade Services, scopes lineitem and score); an instructor opens the tool from the course again once the platform offers them.")
	}
	return nil
}

// RunLTIGrades is the worker that sends grades to the LMSs, on every instance, until ctx ends.
// It sends nothing inside a game's transaction; a platform's failures are warnings.
func (s *Service) RunLTIGrades(ctx context.Context, logger *slog.Logger, transport LTIGradeTransport) {
	if !s.LTIEnabled() {
		return
	}
	for ctx.Err() == nil {
		acted, err := s.LTIGradesPass(ctx, logger, transport)
		if err != nil && ctx.Err() == nil {
			logger.Error("sending grades to the LMS", "error", err)
		}
		if !acted || err != nil {
			sleep(ctx, ltiGradePoll, nil, nil)
		}
	}
}

// LTIGradesPass claims the sends due (LTIGradesBatch at most, at once), makes them and records
// their outcomes before it returns; it reports whether it claimed any.
func (s *Service) LTIGradesPass(ctx context.Context, logger *slog.Logger, transport LTIGradeTransport) (bool, error) {
	jobs, err := s.store.LTIGradeStore.ClaimLTIGrades(ctx, s.now(), ltiGradeLease, LTIGradesPerPlatform, LTIGradesBatch)
	if err != nil || len(jobs) == 0 {
		return false, err
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i := range jobs {
		wg.Add(1)
		go func(job *LTIGradeJob) {
			defer wg.Done()
			out := s.sendLTIGrade(ctx, transport, job)
			if out.Error != "" {
				logger.Warn("the LMS did not take a grade", "assignment_id", job.AssignmentID, "platform_id", job.PlatformID,
					"code", out.Error, "status", out.ErrorStatus, "attempt", job.Attempts, "retry_at", out.RetryAt)
			}
			errs[i] = s.store.LTIGradeStore.LTIGradeDone(ctx, job, out)
		}(&jobs[i])
	}
	wg.Wait()
	return true, errors.Join(errs...)
}

// ltiGradeRetry is the backoff after the attempts made: 30 s, doubling, an hour at most.
func ltiGradeRetry(attempts int) time.Duration {
	d := LTIGradeRetryFirst
	for i := 1; i < attempts && d < LTIGradeRetryMax; i++ {
		d *= 2
	}
	return min(d, LTIGradeRetryMax)
}

// sendLTIGrade makes one send: the line item, or a score.
func (s *Service) sendLTIGrade(ctx context.Context, transport LTIGradeTransport, job *LTIGradeJob) LTIGradeOutcome {
	failed := func(code string, err error) LTIGradeOutcome {
		out := LTIGradeOutcome{Error: code}
		var status interface{ HTTPStatus() int }
		if errors.As(err, &status) {
			out.ErrorStatus = status.HTTPStatus()
		}
		if job.Attempts < LTIGradeMaxAttempts {
			out.RetryAt = s.now().Add(ltiGradeRetry(job.Attempts))
		}
		return out
	}
	if job.StudentID != "" && job.SealedSubject == nil {
		return LTIGradeOutcome{Drop: true}
	}
	reg, err := s.store.LTIPlatform(ctx, job.PlatformID)
	if err != nil {
		return failed("lti_platform_unavailable", err)
	}
	assertion, err := s.ltiClientAssertion(ctx, reg)
	if err != nil {
		return failed("lti_tool_key_unavailable", err)
	}
	scope := LTIScopeScore
	if job.StudentID == "" {
		scope = LTIScopeLineItem
	}
	token, err := transport.AccessToken(ctx, reg, assertion, scope)
	if err != nil {
		return failed("lti_token_refused", err)
	}
	if job.StudentID == "" {
		item := map[string]any{"label": job.Title, "scoreMaximum": job.Games, "resourceId": job.AssignmentID, "tag": "primegames"}
		method, to := "POST", job.LineItemsURL
		if job.LineItemURL != "" { // made already: its label or games changed
			item["id"] = job.LineItemURL
			method, to = "PUT", job.LineItemURL
		}
		body, _ := json.Marshal(item)
		answer, err := transport.Send(ctx, method, to, LTILineItemMediaType, token, body)
		if err != nil {
			return failed("lti_lineitem_refused", err)
		}
		var made struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(answer, &made) != nil || !httpURL(made.ID) {
			return failed("lti_lineitem_refused", errors.New("the answer names no line item"))
		}
		return LTIGradeOutcome{LineItemURL: made.ID}
	}
	aead, err := s.ltiSubjectAEAD()
	if err != nil {
		return failed("lti_tool_key_unavailable", err)
	}
	subject, err := aead.Open(nil, nil, job.SealedSubject, job.LearnerHash)
	if err != nil {
		return LTIGradeOutcome{Drop: true} // sealed under another SECRET_KEY: the next launch keeps it again
	}
	progress := "InProgress"
	if job.GamesDone >= job.Games {
		progress = "Completed"
	}
	body, _ := json.Marshal(map[string]any{"userId": string(subject), "scoreGiven": min(job.GamesDone, job.Games), "scoreMaximum": job.Games,
		"activityProgress": progress, "gradingProgress": "FullyGraded", "timestamp": s.now().UTC().Format("2006-01-02T15:04:05.000Z07:00")})
	if _, err := transport.Send(ctx, "POST", ltiScoresURL(job.LineItemURL), LTIScoreMediaType, token, body); err != nil {
		return failed("lti_score_refused", err)
	}
	return LTIGradeOutcome{}
}

// ltiScoresURL is a line item's scores URL: its path and "/scores", its query kept (AGS §3.4).
func ltiScoresURL(lineItem string) string {
	u, err := url.Parse(lineItem)
	if err != nil {
		return lineItem + "/scores"
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/scores"
	u.RawPath = ""
	return u.String()
}

func httpURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && len(raw) <= ltiMaxURL && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
