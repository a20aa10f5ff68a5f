// Package atomicfile renames a finished temporary file over its target,
// the last step of every atomic write in the module (workspace files, the
// session index, the config and credentials, the rule book, checkpoints).
//
//	// tmp written, synced and closed in target's directory
//	if err := atomicfile.Rename(tmp.Name(), target); err != nil { … }
//	data, err := atomicfile.ReadFile(target) // in another process
//
// On Unix it is rename(2). On Windows, os.Rename is already MoveFileEx
// with MOVEFILE_REPLACE_EXISTING (target is replaced in one step, or not
// at all), but it fails while another process has target open without
// delete sharing, as every Go program opens files: a reader of the
// session index in another dsh-acp, an editor, a virus scanner. Rename
// then tries again for a short while; ReadFile, for the readers of such
// a file, tries again while a rename in another process replaces it.
// SyncDir makes the rename durable
// where a directory can be synced (Unix).
package atomicfile
