package bridge

import (
	"context"
	"strings"
	"unicode"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// titleLength bounds a session title taken from its first prompt.
const titleLength = 80

// SetSessionConfigOption changes one of a session's settings and answers
// with all its options as they now are. The change applies from the next
// model request and is stored with the session.
func (b *Bridge) SetSessionConfigOption(_ context.Context, req acp.SetSessionConfigOptionRequest) (acp.ConfigOptionsResponse, error) {
	if req.ValueId == nil {
		return acp.ConfigOptionsResponse{}, acp.InvalidParams("this agent has no boolean config options")
	}
	v := req.ValueId
	c, err := b.changeSetting(string(v.SessionId), string(v.ConfigId), string(v.Value))
	if err != nil {
		return acp.ConfigOptionsResponse{}, err
	}
	if c.after.Preset != c.before.Preset {
		c.session.out.push(acp.CurrentModeUpdate{CurrentModeID: string(c.after.Preset)})
	}
	return acp.ConfigOptionsResponse{ConfigOptions: c.options()}, nil
}

// SetSessionMode switches the permission preset (the legacy form of the
// "mode" config option) and tells the client the options changed.
func (b *Bridge) SetSessionMode(_ context.Context, req acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	if err := b.switchMode(string(req.SessionId), string(req.ModeId)); err != nil {
		return acp.SetSessionModeResponse{}, err
	}
	return acp.SetSessionModeResponse{}, nil
}

// switchMode switches a session's permission preset to mode, as
// changeSetting does, and tells the client with a current_mode_update
// and a config_option_update: the user's switch (SetSessionMode) and the
// one a plan review makes (ReviewPlan).
func (b *Bridge) switchMode(sessionID, mode string) error {
	c, err := b.changeSetting(sessionID, optionMode, mode)
	if err != nil {
		return err
	}
	c.session.out.push(
		acp.CurrentModeUpdate{CurrentModeID: string(c.after.Preset)},
		acp.ConfigOptionUpdate{ConfigOptions: c.options()},
	)
	return nil
}

// currentSettings returns the session's settings.
func (s *liveSession) currentSettings() live.Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

// setup is what the session's setup answer says of its settings.
func (s *liveSession) setup(menu settingsMenu) acp.SessionSetup {
	settings := s.currentSettings()
	return acp.SessionSetup{Modes: modes(settings.Preset), Models: menu.modelState(settings.Model), ConfigOptions: menu.options(settings)}
}

// apply makes the settings after take effect: each change is logged (and
// so stored), the runtime told, and the stored session's index updated.
// Entering plan mode remembers the preset it left (presetBeforePlan).
func (s *liveSession) apply(before, after live.Settings) {
	s.mu.Lock()
	s.settings = after
	if after.Preset == policy.Plan && before.Preset != policy.Plan {
		s.beforePlan = before.Preset
	}
	kept := s.kept
	s.mu.Unlock()
	s.rt.Apply(after)
	if !kept {
		// Not stored yet (editors set their default options right after
		// session/new): the settings are stored with the first prompt,
		// or with the empty session when it closes without one.
		return
	}
	for _, c := range []struct{ name, old, new string }{
		{optionModel, before.Model, after.Model},
		{optionEffort, before.Effort, after.Effort},
		{optionMode, string(before.Preset), string(after.Preset)},
	} {
		if c.old != c.new {
			s.rt.Log().Append(session.SettingChanged{Setting: c.name, Value: c.new})
		}
	}
	s.storeSettings(after)
}

// storeSettings records the settings in the stored session's index entry,
// and whether the session is empty still (keep, keepEmpty).
func (s *liveSession) storeSettings(settings live.Settings) {
	store := s.bridge.opts.Store
	if store == nil {
		return
	}
	s.mu.Lock()
	empty := s.empty
	s.mu.Unlock()
	_, err := store.UpdateMeta(s.id, func(m *session.Meta) {
		m.Model, m.Effort, m.Preset = settings.Model, settings.Effort, string(settings.Preset)
		m.Empty = empty
	})
	if err != nil {
		s.bridge.opts.Logger.Warn("the session's settings were not stored", "session", s.id, "err", err)
		s.storeFailed(err)
	}
}

// keep marks the session as one to keep from its first prompt on: it is
// stored, with its settings as they are now, and listed from then on. A
// session that is never prompted is kept empty and never listed
// (keepEmpty).
func (s *liveSession) keep() {
	s.mu.Lock()
	stored := s.kept && !s.empty
	s.kept, s.empty = true, false
	settings := s.settings
	s.mu.Unlock()
	if !stored {
		s.storeSettings(settings)
	}
}

// nameFromPrompt gives an untitled session its title from its first
// prompt, at once: the editor's thread list shows it while the turn runs.
func (s *liveSession) nameFromPrompt(content []presentation.ContentBlock) {
	s.mu.Lock()
	titled := s.titled
	s.titled = true
	s.mu.Unlock()
	if titled {
		return
	}
	title := promptTitle(presentation.JoinText(content))
	if title == "" {
		return
	}
	s.rt.Log().Append(session.TitleChanged{Title: title})
	if store := s.bridge.opts.Store; store != nil {
		if _, err := store.UpdateMeta(s.id, func(m *session.Meta) { m.Title = title }); err != nil {
			s.bridge.opts.Logger.Warn("the session's title was not stored", "session", s.id, "err", err)
			s.storeFailed(err)
		}
	}
}

// promptTitle is a prompt's first non-blank line, its white space
// collapsed, cut to titleLength characters at a word when it can be.
func promptTitle(text string) string {
	var line string
	for l := range strings.Lines(text) {
		if strings.TrimSpace(l) != "" {
			line = l
			break
		}
	}
	line = strings.Join(strings.FieldsFunc(line, unicode.IsSpace), " ")
	runes := []rune(line)
	if len(runes) <= titleLength {
		return line
	}
	cut := string(runes[:titleLength])
	if i := strings.LastIndexByte(cut, ' '); i > titleLength/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
