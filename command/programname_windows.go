package command

// hostProgramRule: Windows finds programs without regard to case, and
// without their ".exe".
func hostProgramRule() programRule { return programRule{foldCase: true, dropExe: true} }
