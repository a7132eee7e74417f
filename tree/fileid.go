package tree

import (
	"io/fs"
	"time"
)

// FileID is what tells, without reading a file, that its content has not
// changed since it was last read, as git's index and make tell it: a write
// changes its size, its modification time or (even when the modification
// time is set back) its change time, a replacement its inode or device.
type FileID struct {
	Size            int64
	ModNs, ChangeNs int64
	Ino, Dev        uint64
}

// StatID is the FileID of the file fi describes; false where the system
// does not give its change time and inode (its content can then only be
// known by reading it).
func StatID(fi fs.FileInfo) (FileID, bool) {
	if fi == nil || !fi.Mode().IsRegular() {
		return FileID{}, false
	}
	id, ok := sysID(fi)
	id.Size, id.ModNs = fi.Size(), fi.ModTime().UnixNano()
	return id, ok
}

// racyWindow is how close to a moment a file's times must be for a write
// at that moment to leave them as they are: the coarsest timestamp
// granularity of common file systems (FAT's 2 s; ext4 and tmpfs tick with
// the kernel's coarse clock, every few milliseconds).
const racyWindow = 2 * time.Second

// Racy reports whether the file may be written again without its FileID
// changing, because its times lie within racyWindow of since (when it was
// read) or after it: a FileID is a proof of the content only when it is
// not racy, as git's "racily clean" entries are not.
func (id FileID) Racy(since time.Time) bool {
	limit := since.Add(-racyWindow).UnixNano()
	return id.ModNs >= limit || id.ChangeNs >= limit
}
