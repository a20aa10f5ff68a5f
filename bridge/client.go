package bridge

import (
	"context"

	acpsdk "github.com/coder/acp-go-sdk"
)

// Client is the editor as a session sees it: the calls the bridge makes to
// it. *acp.Conn implements it.
type Client interface {
	Notify(ctx context.Context, method string, params any) error
	RequestPermission(ctx context.Context, req acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error)
	ReadTextFile(ctx context.Context, req acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error)
	WriteTextFile(ctx context.Context, req acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error)
}
