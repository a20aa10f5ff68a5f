package shell

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/dsh-acp/dsh-acp/registry"
)

// jobTable holds a session's jobs in start order. Ended jobs stay, so
// their output can still be read.
type jobTable struct {
	mu   sync.Mutex
	last int
	jobs []*job
}

func newJobTable() *jobTable { return &jobTable{} }

// add gives j the next id ("job_1", "job_2", …) and records it.
func (t *jobTable) add(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last++
	j.id = "job_" + strconv.Itoa(t.last)
	t.jobs = append(t.jobs, j)
}

// get returns the job with id, or nil.
func (t *jobTable) get(id string) *job {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.jobs {
		if j.id == id {
			return j
		}
	}
	return nil
}

// all returns the jobs in start order.
func (t *jobTable) all() []*job {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*job(nil), t.jobs...)
}

// jobNotFound is the failure of a call naming an unknown job.
func jobNotFound(id string) error {
	return &registry.Error{Code: CodeJobNotFound, Message: fmt.Sprintf(
		"no background job %q in this session: call job_list to see the session's jobs", id)}
}
