package live

import (
	"errors"
	"fmt"
)

// A ring keeps the newest bytes of an endless stream, up to a fixed
// capacity, and addresses them by absolute offset: the first byte ever
// appended is at offset 0, and an offset keeps naming the same byte however
// much is appended after it. Offsets are what cursors carry, so a reader
// that fell behind learns exactly how much it missed.
//
// Memory grows with the bytes held, up to the capacity, so a quiet pane
// costs little. A ring is not safe for concurrent use.
type ring struct {
	// buf holds the byte at offset o at buf[o % size]. It grows by
	// doubling until it reaches size, and never wraps before that.
	buf  []byte
	size int
	end  int64 // bytes ever appended
	// base is the offset of the first byte this ring ever held: 0, or
	// where a mirror of a tap's ring joined or skipped to ([ring.Restart]).
	// The byte at offset o is at buf[(o-base) % size].
	base int64
}

// errAheadOfStream is the error of reading a ring at an offset it has not
// reached, such as a cursor from a different stream.
var errAheadOfStream = errors.New("offset is ahead of the stream")

// newRing returns an empty ring that keeps the newest capacity bytes.
// It panics if capacity is not positive.
func newRing(capacity int) *ring {
	if capacity <= 0 {
		panic(fmt.Sprintf("tmuxctl: ring capacity %d is not positive", capacity))
	}
	return &ring{size: capacity}
}

// Start returns the offset of the oldest byte still held.
func (r *ring) Start() int64 { return max(r.base, r.end-int64(r.size)) }

// Restart empties the ring and makes off its next offset: what came
// before off is no longer held here (a mirror that joins a tap late, or
// that the tap's ring overran).
func (r *ring) Restart(off int64) {
	r.buf, r.base, r.end = r.buf[:0], off, off
}

// End returns the number of bytes ever appended: the offset the next byte
// will have.
func (r *ring) End() int64 { return r.end }

// Append adds p at the end, dropping the oldest bytes beyond the capacity.
func (r *ring) Append(p []byte) {
	if len(p) == 0 {
		return
	}
	if len(p) >= r.size {
		// Only the tail of p survives; skip the rest without copying it.
		r.grow(r.size)
		r.end += int64(len(p) - r.size)
		p = p[len(p)-r.size:]
	} else if len(r.buf) < r.size {
		// Not yet wrapped, so len(buf) == end-base: append in place if it fits.
		if n := len(r.buf) + len(p); n <= r.size {
			r.grow(n)
			copy(r.buf[len(r.buf)-len(p):], p)
			r.end += int64(len(p))
			return
		}
		r.grow(r.size)
	}
	pos := int((r.end - r.base) % int64(r.size))
	n := copy(r.buf[pos:], p)
	copy(r.buf, p[n:])
	r.end += int64(len(p))
}

// grow makes len(r.buf) n, keeping its contents, with capacity doubling
// up to size so that appends cost amortised constant time.
func (r *ring) grow(n int) {
	if n <= len(r.buf) {
		return
	}
	if n > cap(r.buf) {
		c := min(max(2*cap(r.buf), n, 512), r.size)
		buf := make([]byte, len(r.buf), c)
		copy(buf, r.buf)
		r.buf = buf
	}
	r.buf = r.buf[:n]
}

// ReadFrom returns a copy of the bytes from offset off to the end, at most
// limit of them (no limit if limit is negative), oldest first. If the ring
// no longer holds the bytes at off, the copy starts at [ring.Start] and
// missed counts the bytes skipped. A caller that wants the newest bytes
// within a limit reads from End() - limit.
//
// It fails if off is negative or beyond [ring.End]; the error then wraps
// errAheadOfStream.
func (r *ring) ReadFrom(off int64, limit int) (data []byte, missed int64, err error) {
	switch {
	case off < 0:
		return nil, 0, fmt.Errorf("reading stream at offset %d: negative offset", off)
	case off > r.end:
		return nil, 0, fmt.Errorf("reading stream at offset %d, end %d: %w", off, r.end, errAheadOfStream)
	}
	if start := r.Start(); off < start {
		missed, off = start-off, start
	}
	n := r.end - off
	if limit >= 0 && n > int64(limit) {
		n = int64(limit)
	}
	data = make([]byte, n)
	pos := int((off - r.base) % int64(r.size))
	k := copy(data, r.buf[pos:])
	copy(data[k:], r.buf)
	return data, missed, nil
}
