package command

// hostProgramRule: macOS's file system ignores case, so a program is
// found by any case of its name.
func hostProgramRule() programRule { return programRule{foldCase: true} }
