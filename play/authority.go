package play

import "context"

// EndedAuthorities returns, of the token hashes, those that open nothing any more (a teacher token
// rotated, a student token reissued or its student removed, an observer token revoked or expired
// by the service's clock), and of the students, those removed: what the live streams holding them
// check, all at once, as a backstop to the notices of each such change.
func (s *Service) EndedAuthorities(ctx context.Context, hashes [][]byte, studentIDs []string) (tokens [][]byte, students []string, err error) {
	return s.authorities.store.EndedAuthorities(ctx, hashes, studentIDs, s.authorities.clock.Now())
}

// EndedTeachings returns, of the teachings the live streams hold, those that are no more (a
// co-teacher removed, a classroom detached from its owner): the streams' backstop to the notice of
// a co-teacher's removal, which a listener reconnecting may miss.
func (s *Service) EndedTeachings(ctx context.Context, teachings []ClassroomTeaching) ([]ClassroomTeaching, error) {
	return s.authorities.teaching.EndedTeachings(ctx, teachings)
}
