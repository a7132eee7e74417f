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
// at that moment to leave them as they are, on a file system that keeps
// whole seconds (ext3, HFS+) or even seconds (FAT): its coarsest
// timestamp granularity.
const racyWindow = 2 * time.Second

// fineRacyWindow is racyWindow for a file whose times have a sub-second
// part: its file system keeps them (ext4, XFS, Btrfs, tmpfs, APFS in
// nanoseconds, NTFS in 100 ns, exFAT in 10 ms), stamped from a clock that
// ticks every few milliseconds (Linux's coarse clock: one jiffy, 10 ms at
// most), so a tenth of a second covers the tick several times over. A
// file right after `drydock test --update` is then known on the next run,
// not two seconds later.
const fineRacyWindow = 100 * time.Millisecond

// Racy reports whether the file may be written again without its FileID
// changing, because its times lie within the racy window of since (when
// it was read) or after it: a FileID is a proof of the content only when
// it is not racy, as git's "racily clean" entries are not. The window is
// fineRacyWindow when both times have a sub-second part (a whole second
// by chance only makes the check stricter), else racyWindow.
func (id FileID) Racy(since time.Time) bool {
	window := racyWindow
	if id.ModNs%int64(time.Second) != 0 && id.ChangeNs%int64(time.Second) != 0 {
		window = fineRacyWindow
	}
	limit := since.Add(-window).UnixNano()
	return id.ModNs >= limit || id.ChangeNs >= limit
}
