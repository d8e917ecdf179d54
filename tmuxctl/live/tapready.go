package live

import (
	"encoding/hex"
	"net"
	"path/filepath"
	"sync"
)

// A tap this instance starts says when it listens: it sends its
// generation, in hex, as one datagram to the hub's ready socket (a unix
// datagram socket in the hub's private directory, made on the first tap
// start). The dial that waits for the tap then tries at once rather than
// at its next polling step: a tap takes a few milliseconds to start, and
// polling every millisecond added half a step, on average, to every new
// stream. Without the socket (a path too long for one, say) taps are
// polled for as before; a datagram that never comes costs nothing.
type readyBoard struct {
	once sync.Once
	conn *net.UnixConn // nil when the socket could not be made
	path string

	mu      sync.Mutex
	waiting map[[16]byte]chan struct{} // closed when that generation's tap listens
	woken   int                        // dials woken so far
}

// readySocketName is the ready socket's name in the hub's directory.
const readySocketName = "ready"

// expectTap returns the ready socket's path (for the tap's --ready) and a
// channel closed when the tap of generation gen says it listens; forget
// must be called once the channel is no longer read. With no socket the
// path is "" and the channel is never closed.
func (h *Hub) expectTap(gen [16]byte) (path string, ready <-chan struct{}, forget func()) {
	b := &h.readyBoard
	b.once.Do(func() { h.openReadyBoard() })
	ch := make(chan struct{})
	if b.conn == nil {
		return "", ch, func() {}
	}
	b.mu.Lock()
	b.waiting[gen] = ch
	b.mu.Unlock()
	return b.path, ch, func() {
		b.mu.Lock()
		if b.waiting[gen] == ch {
			delete(b.waiting, gen)
		}
		b.mu.Unlock()
	}
}

// openReadyBoard makes the ready socket and reads it until the hub closes
// it (closeReadyBoard).
func (h *Hub) openReadyBoard() {
	b := &h.readyBoard
	path := filepath.Join(h.dir, readySocketName)
	if len(path) >= 100 { // a unix socket's path is short (108 bytes on Linux, 104 on macOS and FreeBSD)
		return
	}
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return
	}
	b.waiting = map[[16]byte]chan struct{}{}
	if !h.goFunc(func() { b.read(conn) }) {
		conn.Close()
		return
	}
	b.conn, b.path = conn, path
}

// read takes datagrams until conn is closed: each names the generation
// of a tap that now listens. Anything else is ignored: only this user
// can reach the socket (the directory is 0700), and a wrong wake-up only
// makes a dial try early.
func (b *readyBoard) read(conn *net.UnixConn) {
	buf := make([]byte, 64)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return
		}
		var gen [16]byte
		if n != 2*len(gen) {
			continue
		}
		if _, err := hex.Decode(gen[:], buf[:n]); err != nil {
			continue
		}
		b.mu.Lock()
		if ch, ok := b.waiting[gen]; ok {
			delete(b.waiting, gen)
			close(ch)
			b.woken++
		}
		b.mu.Unlock()
	}
}

// closeReadyBoard ends the ready socket's reader, if it runs.
func (h *Hub) closeReadyBoard() {
	b := &h.readyBoard
	b.once.Do(func() {}) // none may be made from now on
	if b.conn != nil {
		b.conn.Close()
	}
}

// tellReady is the tap's side: it says to the ready socket at path that
// the tap of generation gen listens. Errors are ignored: the instance
// that waits also polls.
func tellReady(path string, gen [16]byte) {
	if path == "" {
		return
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return
	}
	conn.Write([]byte(hex.EncodeToString(gen[:])))
	conn.Close()
}
