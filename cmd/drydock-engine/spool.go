package main

import (
	"bufio"
	"fmt"
	"os"
)

// spillAfter is how many bytes of encoded objects a spool keeps in memory
// before it writes the rest to a temporary file.
var spillAfter = 4 << 20

// spoolChunk is the size of the chunks a spool keeps in memory.
const spoolChunk = 1 << 20

// spool keeps the encoded objects of the stdout stream until the render
// ends (the stream is sorted, the render is not): the first spillAfter
// bytes in memory, in large shared chunks, and the rest in a temporary
// file, so that memory does not grow with the size of the render. The
// file is unlinked as soon as it is open where the system allows it, and
// removed by close otherwise. When no temporary file can be made, the
// spool keeps everything in memory, as a render without one would need.
type spool struct {
	chunks [][]byte
	held   int
	file   *os.File
	name   string // the file's name while it is linked
	w      *bufio.Writer
	size   int64
	noFile bool
	read   []byte // the last object read from the file
}

// span is where one object is in a spool: chunk's bytes [start, end), or
// the file's when chunk is -1.
type span struct {
	chunk      int
	start, end int64
}

func (s *spool) add(data []byte) (span, error) {
	if s.held+len(data) > spillAfter && !s.noFile {
		if s.file == nil {
			if err := s.open(); err != nil {
				s.noFile = true
				return s.keep(data), nil
			}
		}
		if _, err := s.w.Write(data); err != nil {
			return span{}, fmt.Errorf("stream spool: %w", err)
		}
		sp := span{chunk: -1, start: s.size, end: s.size + int64(len(data))}
		s.size = sp.end
		return sp, nil
	}
	return s.keep(data), nil
}

func (s *spool) keep(data []byte) span {
	last := len(s.chunks) - 1
	if last < 0 || len(s.chunks[last])+len(data) > cap(s.chunks[last]) {
		s.chunks = append(s.chunks, make([]byte, 0, max(spoolChunk, len(data))))
		last++
	}
	start := len(s.chunks[last])
	s.chunks[last] = append(s.chunks[last], data...)
	s.held += len(data)
	return span{chunk: last, start: int64(start), end: int64(len(s.chunks[last]))}
}

func (s *spool) open() error {
	f, err := os.CreateTemp("", "drydock-stream-")
	if err != nil {
		return err
	}
	s.file, s.w = f, bufio.NewWriterSize(f, 1<<16)
	if os.Remove(f.Name()) != nil {
		s.name = f.Name()
	}
	return nil
}

// bytes returns the object at sp, valid until the next call. Call it only
// once everything is added.
func (s *spool) bytes(sp span) ([]byte, error) {
	if sp.chunk >= 0 {
		return s.chunks[sp.chunk][sp.start:sp.end], nil
	}
	if s.w.Buffered() > 0 {
		if err := s.w.Flush(); err != nil {
			return nil, fmt.Errorf("stream spool: %w", err)
		}
	}
	if n := int(sp.end - sp.start); cap(s.read) < n {
		s.read = make([]byte, n)
	} else {
		s.read = s.read[:n]
	}
	if _, err := s.file.ReadAt(s.read, sp.start); err != nil {
		return nil, fmt.Errorf("stream spool: %w", err)
	}
	return s.read, nil
}

// close drops what the spool holds.
func (s *spool) close() {
	s.chunks = nil
	if s.file != nil {
		s.file.Close()
		if s.name != "" {
			os.Remove(s.name)
		}
		s.file, s.w = nil, nil
	}
}
