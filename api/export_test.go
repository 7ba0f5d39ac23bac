package api

import "context"

// HoldRender takes a render slot as an expensive request would, for a test to fill the gate.
func (s *Server) HoldRender(ctx context.Context) (release func(), err error) {
	return s.renders.enter(ctx)
}

// OnRenderWait has the gate call f whenever a request starts to wait for a slot.
func (s *Server) OnRenderWait(f func()) { s.renders.waited = f }

// OnReplayShared has the server call f whenever a replay request starts to wait for another
// request's drawing of the same window.
func (s *Server) OnReplayShared(f func()) { s.replays.joined = f }
