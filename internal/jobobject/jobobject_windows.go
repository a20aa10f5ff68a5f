//go:build windows

package jobobject

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// CreationFlags are the process creation flags of a process that Hold
// takes: suspended until it is in the job, in a process group of its own
// (console control events to the agent do not reach it), and without a
// console window of its own.
const CreationFlags = windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW

// Job is a Job Object that kills its processes when closed.
type Job struct {
	handle windows.Handle
}

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type basicAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// Hold creates a job that kills its processes when closed, puts the
// process pid (started suspended, with CreationFlags) in it, and resumes
// the process's threads. On failure the job is closed, which kills the
// process if it had been assigned; the caller kills it otherwise.
func Hold(pid int) (*Job, error) {
	handle, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("create a job object: %w", err)
	}
	job := &Job{handle: handle}
	if err := job.hold(uint32(pid)); err != nil {
		_ = job.Close()
		return nil, err
	}
	return job, nil
}

func (j *Job) hold(pid uint32) error {
	limits := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	limits.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(j.handle, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&limits)), uint32(unsafe.Sizeof(limits))); err != nil {
		return fmt.Errorf("make the job kill its processes on close: %w", err)
	}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("open process %d: %w", pid, err)
	}
	defer windows.CloseHandle(proc)
	if err := windows.AssignProcessToJobObject(j.handle, proc); err != nil {
		return fmt.Errorf("put process %d in its job: %w", pid, err)
	}
	return resume(pid)
}

// resume resumes every thread of the suspended process pid.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("list the threads of process %d: %w", pid, err)
	}
	defer windows.CloseHandle(snap)
	entry := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &entry); err == nil; err = windows.Thread32Next(snap, &entry) {
		if entry.OwnerProcessID != pid {
			continue
		}
		thread, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, entry.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d of process %d: %w", entry.ThreadID, pid, err)
		}
		_, err = windows.ResumeThread(thread)
		windows.CloseHandle(thread)
		if err != nil {
			return fmt.Errorf("resume thread %d of process %d: %w", entry.ThreadID, pid, err)
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("process %d has no thread to resume", pid)
	}
	return nil
}

// Active is how many processes of the job are still running.
func (j *Job) Active() (int, error) {
	var info basicAccounting
	if err := windows.QueryInformationJobObject(j.handle, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0, fmt.Errorf("query the job: %w", err)
	}
	return int(info.ActiveProcesses), nil
}

// KilledCode is the exit code Terminate gives every process of the job.
const KilledCode = 1

// Terminate kills every process of the job at once, with exit code
// KilledCode.
func (j *Job) Terminate() error {
	if err := windows.TerminateJobObject(j.handle, KilledCode); err != nil {
		return fmt.Errorf("terminate the job: %w", err)
	}
	return nil
}

// Close closes the job, which kills whatever still runs in it.
func (j *Job) Close() error {
	return windows.CloseHandle(j.handle)
}
