package bridge

import (
	"context"

	"github.com/dsh-acp/dsh-acp/acp"
)

// SetSessionModel switches the session's model: the older, unstable form
// of the "model" config option, which agent-shell and the AI SDK provider
// use (they read the "models" member of the session's setup, which every
// setup carries when models are on offer). It changes the setting the
// config option shows, and tells config-option clients so with a
// config_option_update. The change applies from the next model request
// and is stored with the session.
func (b *Bridge) SetSessionModel(_ context.Context, req acp.SetSessionModelRequest) (acp.SetSessionModelResponse, error) {
	s, menu, _, after, err := b.changeSetting(req.SessionID, optionModel, req.ModelID)
	if err != nil {
		return acp.SetSessionModelResponse{}, err
	}
	s.out.push(acp.ConfigOptionUpdate{ConfigOptions: menu.options(after)})
	return acp.SetSessionModelResponse{}, nil
}

// changeSetting sets the option id of a live session to value and makes
// it take effect (liveSession.apply); it returns the session, the menu
// the change was made with, and the settings before and after. An
// unknown session or a value the option does not take is an error the
// client can be answered with (-32602).
func (b *Bridge) changeSetting(sessionID, id, value string) (s *liveSession, menu settingsMenu, before, after Settings, err error) {
	s, err = b.session(sessionID)
	if err != nil {
		return nil, menu, before, after, err
	}
	menu = b.menu()
	before = s.currentSettings()
	after, err = menu.change(before, id, value)
	if err != nil {
		return nil, menu, before, after, acp.InvalidParams("%v", err)
	}
	s.apply(before, after)
	return s, menu, before, after, nil
}
