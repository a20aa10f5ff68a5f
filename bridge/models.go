package bridge

import (
	"context"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/live"
)

// SetSessionModel switches the session's model: the older, unstable form
// of the "model" config option, which agent-shell and the AI SDK provider
// use (they read the "models" member of the session's setup, which every
// setup carries when models are on offer). It changes the setting the
// config option shows, and tells config-option clients so with a
// config_option_update. The change applies from the next model request
// and is stored with the session.
func (b *Bridge) SetSessionModel(_ context.Context, req acp.SetSessionModelRequest) (acp.SetSessionModelResponse, error) {
	c, err := b.changeSetting(req.SessionID, optionModel, req.ModelID)
	if err != nil {
		return acp.SetSessionModelResponse{}, err
	}
	c.session.out.push(acp.ConfigOptionUpdate{ConfigOptions: c.options()})
	return acp.SetSessionModelResponse{}, nil
}

// settingChange is a change of one setting of a live session, made.
type settingChange struct {
	session       *liveSession
	menu          settingsMenu // the menu the change was made with
	before, after live.Settings
}

// changeSetting sets the option id of a live session to value and makes
// it take effect (liveSession.apply). An unknown session or a value the
// option does not take is an error the client can be answered with
// (-32602).
func (b *Bridge) changeSetting(sessionID, id, value string) (settingChange, error) {
	s, err := b.session(sessionID)
	if err != nil {
		return settingChange{}, err
	}
	c := settingChange{session: s, menu: b.menu(), before: s.currentSettings()}
	c.after, err = c.menu.change(c.before, id, value)
	if err != nil {
		return settingChange{}, acp.InvalidParams("%v", err)
	}
	s.apply(c.before, c.after)
	return c, nil
}

// options returns the session's config options after the change.
func (c settingChange) options() []acp.SessionConfigOption { return c.menu.options(c.after) }
