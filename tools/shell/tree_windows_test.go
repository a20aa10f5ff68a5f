//go:build windows

package shell

import "golang.org/x/sys/windows"

// processGone reports whether process pid has ended.
func processGone(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return true
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err != nil || ev == windows.WAIT_OBJECT_0
}
