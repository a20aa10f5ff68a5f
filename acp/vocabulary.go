package acp

import acpsdk "github.com/coder/acp-go-sdk"

// The ACP vocabulary the rest of the module speaks: the requests a client
// sends and the answers an Agent gives, the client methods an agent calls,
// and what they hold. They are the pinned SDK's types under this package's
// names, so that no package but acp imports the SDK, and a change of SDK
// is absorbed here.
type (
	AgentCapabilities                        = acpsdk.AgentCapabilities
	AuthMethod                               = acpsdk.AuthMethod
	AuthMethodAgent                          = acpsdk.AuthMethodAgent
	AuthMethodTerminalInline                 = acpsdk.AuthMethodTerminalInline
	AuthenticateRequest                      = acpsdk.AuthenticateRequest
	AuthenticateResponse                     = acpsdk.AuthenticateResponse
	CancelNotification                       = acpsdk.CancelNotification
	CloseSessionRequest                      = acpsdk.CloseSessionRequest
	CloseSessionResponse                     = acpsdk.CloseSessionResponse
	PromptContent                            = acpsdk.ContentBlock
	PromptResourceLink                       = acpsdk.ContentBlockResourceLink
	EmbeddedResourceResource                 = acpsdk.EmbeddedResourceResource
	HttpHeader                               = acpsdk.HttpHeader
	Implementation                           = acpsdk.Implementation
	ListSessionsRequest                      = acpsdk.ListSessionsRequest
	LogoutCapabilities                       = acpsdk.LogoutCapabilities
	LogoutRequest                            = acpsdk.LogoutRequest
	LogoutResponse                           = acpsdk.LogoutResponse
	McpCapabilities                          = acpsdk.McpCapabilities
	McpServer                                = acpsdk.McpServer
	PromptCapabilities                       = acpsdk.PromptCapabilities
	PromptRequest                            = acpsdk.PromptRequest
	PromptResponse                           = acpsdk.PromptResponse
	ReadTextFileRequest                      = acpsdk.ReadTextFileRequest
	ReadTextFileResponse                     = acpsdk.ReadTextFileResponse
	RequestPermissionResponse                = acpsdk.RequestPermissionResponse
	SessionAdditionalDirectoriesCapabilities = acpsdk.SessionAdditionalDirectoriesCapabilities
	SessionCapabilities                      = acpsdk.SessionCapabilities
	SessionCloseCapabilities                 = acpsdk.SessionCloseCapabilities
	SessionDeleteCapabilities                = acpsdk.SessionDeleteCapabilities
	SessionId                                = acpsdk.SessionId
	SessionListCapabilities                  = acpsdk.SessionListCapabilities
	SessionResumeCapabilities                = acpsdk.SessionResumeCapabilities
	SetSessionConfigOptionRequest            = acpsdk.SetSessionConfigOptionRequest
	SetSessionModeRequest                    = acpsdk.SetSessionModeRequest
	SetSessionModeResponse                   = acpsdk.SetSessionModeResponse
	StopReason                               = acpsdk.StopReason
	WriteTextFileRequest                     = acpsdk.WriteTextFileRequest
	WriteTextFileResponse                    = acpsdk.WriteTextFileResponse
)

// Why a prompt turn ended.
const (
	StopReasonCancelled       = acpsdk.StopReasonCancelled
	StopReasonEndTurn         = acpsdk.StopReasonEndTurn
	StopReasonMaxTokens       = acpsdk.StopReasonMaxTokens
	StopReasonMaxTurnRequests = acpsdk.StopReasonMaxTurnRequests
	StopReasonRefusal         = acpsdk.StopReasonRefusal
)

// The methods an agent calls on the client.
const (
	ClientMethodElicitationCreate        = acpsdk.ClientMethodElicitationCreate
	ClientMethodFsReadTextFile           = acpsdk.ClientMethodFsReadTextFile
	ClientMethodFsWriteTextFile          = acpsdk.ClientMethodFsWriteTextFile
	ClientMethodSessionRequestPermission = acpsdk.ClientMethodSessionRequestPermission
	ClientMethodSessionUpdate            = acpsdk.ClientMethodSessionUpdate
)
