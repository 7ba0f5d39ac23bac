package play

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"

	"primegames/domain"
)

// Children sign in with their classroom's join code and a personal sign-in code of
// SignInCodeLength characters of joinCodeAlphabet (no 0/O, 1/I/L), which the teacher lists, resets
// and prints on cards. A code is derived, not stored: the first SignInCodeLength characters drawn
// from HMAC-SHA256 under deriveKey32(SECRET_KEY, "primegames sign-in codes") over the student's id
// and a nonce that a reset draws anew; so the teacher sees it again whenever they ask, and the
// database holds no code. What the database holds to find a student by code is a lookup, a second
// keyed HMAC over the classroom and the code, unique among the classroom's current students.
// Without SECRET_KEY no code is made and sign-in answers 503 sign_in_codes_disabled.
//
// A sign-in issues a fresh student token (hashed, shown once), kept beside the student's own: a
// child signs in on several devices and each keeps working, up to MaxStudentSignIns a student (a
// further sign-in ends the oldest). A reset of the code ends the tokens signed in with it (a lost
// card may have been used); removing the student ends them all. A child on a shared device signs
// out: the token of that sign-in ends itself (StudentSignOut). The student's own token, from joining
// the class, is not a sign-in and cannot end itself: it is the student's only key, which a teacher
// reissues (POST /v1/classrooms/{classroom_id}/students/{student_id}/token) when it is lost.

// SignInCodeLength is the number of characters of a personal sign-in code.
const SignInCodeLength = 6

// MaxStudentSignIns bounds the tokens a student holds from signing in; the oldest ends first.
const MaxStudentSignIns = 5

// signInCodeDraws is how many nonces a code is drawn with before a clash in the classroom is an error.
const signInCodeDraws = 6

// SignInStudent is a current student with what their code derives from.
type SignInStudent struct {
	StudentRecord
	Nonce int64
	// Lookup is the lookup stored, nil until the codes are first listed; one made under another
	// SECRET_KEY differs from the code's and is stored again as the codes are listed.
	Lookup []byte
}

// SignInCode is a student with their personal sign-in code.
type SignInCode struct {
	Student StudentRecord
	Code    string
}

// SignInCodeStore keeps the students' sign-in codes' lookups and the tokens signed in with them.
type SignInCodeStore interface {
	// SignInStudents lists the classroom's current students by name with their codes' nonces.
	SignInStudents(ctx context.Context, classroomID string) ([]SignInStudent, error)
	// SetSignInCode stores a current student's nonce and the lookup of the code it derives;
	// endSignIns deletes the tokens signed in with the code before. ErrTaken when another current
	// student of the classroom has the lookup, ErrNotFound when there is no such current student.
	SetSignInCode(ctx context.Context, classroomID, studentID string, nonce int64, lookup []byte, endSignIns bool) error
	// StudentBySignInCode is the classroom's current student whose code has the lookup; ErrNotFound
	// when none.
	StudentBySignInCode(ctx context.Context, classroomID string, lookup []byte) (*StudentRecord, error)
	// InsertStudentSignIn stores a student token's hash, deleting the student's oldest beyond keep.
	InsertStudentSignIn(ctx context.Context, studentID string, hash []byte, now time.Time, keep int) error
	// EndStudentSignIn deletes the sign-in whose token has the hash, ending the streams that hold it
	// (token_revoked). When no sign-in has it, own reports whether it is a current student's own
	// token, and the error is ErrNotFound when it is neither.
	EndStudentSignIn(ctx context.Context, hash []byte) (own bool, err error)
}

// signInCodes makes and checks children's sign-in codes (signin_codes.go).
type signInCodes struct {
	store      SignInCodeStore
	classrooms ClassroomStore
	clock      Clock
	secret     signInKey
}

// signInKey is the secret (SECRET_KEY) the codes derive from: a setting of the part.
type signInKey []byte

// WithSignInCodeSecret sets the secret (SECRET_KEY) the students' sign-in codes derive from; every
// instance of a deployment needs the same. Without it there are no sign-in codes.
func WithSignInCodeSecret(secret []byte) Option {
	return func(s *Service) { s.signInSecret = secret }
}

func signInCodesDisabled() error {
	return domain.Errorf(domain.KindUnavailable, "sign_in_codes_disabled",
		"This server has no SECRET_KEY, so students have no sign-in codes; the operator sets one (docs/operations.md).")
}

func signInRefused() error {
	return domain.Errorf(domain.KindNotFound, "sign_in_code_not_found",
		"That class code and sign-in code do not match; check the card, or ask your teacher.")
}

// SignInCodes lists the classroom's current students with their sign-in codes, by name.
func (s *Service) SignInCodes(ctx context.Context, classroomID string) ([]SignInCode, error) {
	return s.signInCodes.list(ctx, classroomID)
}

// ResetSignInCode gives a current student a new sign-in code: the old one and the tokens signed in
// with it stop working.
func (s *Service) ResetSignInCode(ctx context.Context, classroomID, studentID string) (*SignInCode, error) {
	return s.signInCodes.reset(ctx, classroomID, studentID)
}

// StudentSignIn signs a student in with the class's join code and their personal code, and
// returns the student, their classroom and a new student token (shown once).
func (s *Service) StudentSignIn(ctx context.Context, joinCode, code string) (*StudentRecord, *Classroom, string, error) {
	return s.signInCodes.signIn(ctx, joinCode, code)
}

// StudentSignOut ends the sign-in whose student token the principal presents: the token stops
// working at once, on every instance, and the streams that hold it end. A student's own token is
// refused (403 not_a_sign_in); a token that no longer works gets 401, another kind of token 403.
func (s *Service) StudentSignOut(ctx context.Context, p Principal) error {
	return s.signInCodes.signOut(ctx, p)
}

func notASignIn() error {
	return domain.Errorf(domain.KindForbidden, "not_a_sign_in",
		"This is the student's own token, from joining the class, not one from signing in with a card: it cannot sign out, as it is the student's only key. Forget it on the device instead; the teacher can issue a new one.")
}

func signedOutAlready() error {
	return domain.Errorf(domain.KindUnauthorized, "unauthorized",
		"This token is not valid: it was signed out, its code was reset or its student removed.")
}

func (sc *signInCodes) signOut(ctx context.Context, p Principal) error {
	switch {
	case p.Kind == Anonymous:
		return domain.Errorf(domain.KindUnauthorized, "unauthorized",
			"Signing out needs the student token of the sign-in: send it as Authorization: Bearer <token>.")
	case p.Kind != Student:
		return domain.Errorf(domain.KindForbidden, "student_token_required",
			"Only a student token from signing in with a card signs out here; a teacher's session signs out with POST /v1/auth/logout.")
	case !p.Resolved:
		return signedOutAlready()
	}
	own, err := sc.store.EndStudentSignIn(ctx, p.TokenHash)
	switch {
	case own:
		return notASignIn()
	case errors.Is(err, ErrNotFound): // ended meanwhile
		return signedOutAlready()
	}
	return err
}

// code is the sign-in code of the student's nonce.
func (sc *signInCodes) code(studentID string, nonce int64) string {
	key := deriveKey32(sc.secret, "primegames sign-in codes")
	out := make([]byte, 0, SignInCodeLength)
	limit := 256 / len(joinCodeAlphabet) * len(joinCodeAlphabet)
	for round := 0; len(out) < SignInCodeLength; round++ {
		sum := hmacSHA256(key, []byte(studentID+":"+strconv.FormatInt(nonce, 10)+":"+strconv.Itoa(round)))
		for _, x := range sum {
			if int(x) < limit && len(out) < SignInCodeLength {
				out = append(out, joinCodeAlphabet[int(x)%len(joinCodeAlphabet)])
			}
		}
	}
	return string(out)
}

// lookup is what the store keeps to find the classroom's student by code.
func (sc *signInCodes) lookup(classroomID, code string) []byte {
	sum := hmacSHA256(deriveKey32(sc.secret, "primegames sign-in code lookup"), []byte(classroomID+":"+code))
	return sum[:]
}

// normalSignInCode is a typed code as codes are made: upper case, without spaces or dashes.
func normalSignInCode(code string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, code)
}

func randomNonce() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return int64(binary.BigEndian.Uint64(b[:]) >> 1)
}

// keep stores the lookup of the student's code of nonce, drawing other nonces while the code
// clashes with another student's; it returns the code stored.
func (sc *signInCodes) keep(ctx context.Context, classroomID, studentID string, nonce int64, endSignIns bool) (string, error) {
	var err error
	for range signInCodeDraws {
		code := sc.code(studentID, nonce)
		err = sc.store.SetSignInCode(ctx, classroomID, studentID, nonce, sc.lookup(classroomID, code), endSignIns)
		if !errors.Is(err, ErrTaken) {
			return code, err
		}
		nonce = randomNonce()
	}
	return "", err
}

func (sc *signInCodes) list(ctx context.Context, classroomID string) ([]SignInCode, error) {
	if len(sc.secret) == 0 {
		return nil, signInCodesDisabled()
	}
	students, err := sc.store.SignInStudents(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	codes := make([]SignInCode, 0, len(students))
	for _, st := range students {
		code := sc.code(st.ID, st.Nonce)
		if !bytes.Equal(st.Lookup, sc.lookup(classroomID, code)) {
			code, err = sc.keep(ctx, classroomID, st.ID, st.Nonce, false)
			if errors.Is(err, ErrNotFound) {
				continue // removed meanwhile
			}
			if err != nil {
				return nil, err
			}
		}
		codes = append(codes, SignInCode{Student: st.StudentRecord, Code: code})
	}
	return codes, nil
}

func (sc *signInCodes) reset(ctx context.Context, classroomID, studentID string) (*SignInCode, error) {
	if len(sc.secret) == 0 {
		return nil, signInCodesDisabled()
	}
	if !validUUID(studentID) {
		return nil, studentNotFound()
	}
	code, err := sc.keep(ctx, classroomID, studentID, randomNonce(), true)
	if errors.Is(err, ErrNotFound) {
		return nil, studentNotFound()
	}
	if err != nil {
		return nil, err
	}
	st, err := sc.store.StudentBySignInCode(ctx, classroomID, sc.lookup(classroomID, code))
	if err != nil {
		return nil, err
	}
	return &SignInCode{Student: *st, Code: code}, nil
}

func (sc *signInCodes) signIn(ctx context.Context, joinCode, code string) (*StudentRecord, *Classroom, string, error) {
	if len(sc.secret) == 0 {
		return nil, nil, "", signInCodesDisabled()
	}
	code = normalSignInCode(code)
	c, err := sc.classrooms.ClassroomByJoinCode(ctx, NormalCode(joinCode))
	if errors.Is(err, ErrNotFound) || (err == nil && len(code) != SignInCodeLength) {
		return nil, nil, "", signInRefused() // an unknown class answers as a wrong code does
	}
	if err != nil {
		return nil, nil, "", err
	}
	st, err := sc.store.StudentBySignInCode(ctx, c.ID, sc.lookup(c.ID, code))
	if errors.Is(err, ErrNotFound) {
		return nil, nil, "", signInRefused()
	}
	if err != nil {
		return nil, nil, "", err
	}
	token, hash := NewToken(TokenStudent)
	if err := sc.store.InsertStudentSignIn(ctx, st.ID, hash, sc.clock.Now(), MaxStudentSignIns); err != nil {
		return nil, nil, "", err
	}
	return st, c, token, nil
}
