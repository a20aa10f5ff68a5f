package todo

// Status is where a plan item stands.
type Status string

// The item statuses.
const (
	StatusPending    Status = "pending"
	StatusInProgress Status = "in_progress"
	StatusCompleted  Status = "completed"
)

// Priority is how much an item matters.
type Priority string

// The item priorities; an item without one is PriorityMedium.
const (
	PriorityHigh   Priority = "high"
	PriorityMedium Priority = "medium"
	PriorityLow    Priority = "low"
)

// Item is one entry of the plan.
type Item struct {
	Content  string   `json:"content" jsonschema:"what to do, as a short imperative sentence"`
	Status   Status   `json:"status" jsonschema:"pending, in_progress or completed"`
	Priority Priority `json:"priority,omitempty" jsonschema:"high, medium or low (default medium)"`
}
