package live

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// The tap's wire. A reader connects to the tap's unix socket and sends one
// line, "ltxtap1 <generation> <offset>\n" — with " opener" before the
// newline from the instance that opened the tap's pipe, which the tap
// waits for after its pipe's end — and the tap answers with frames of
// one kind byte, a 4-byte big-endian length and a payload:
//
//	H  header (JSON tapHeader): the stream's text starts at Start here;
//	   End is where the tap's ring ended when the reader asked
//	T  text, appended at the reader's offset
//	S  skip (8-byte offset): the tap's ring overran the reader, whose next
//	   text starts there; the bytes in between are missed
//	M  a frame marker (JSON frame.Marker) at its offset, sent after the
//	   text before it
//	E  the pane's pipe reached its end: no more text will come
//	Y  synced: everything the tap held when the reader's last "sync"
//	   line came has been sent
//	X  refusal (text): a wrong generation or a bad request
//
// After its request a reader may send "sync\n" lines; each is answered by
// one Y frame.
const (
	tapSynced  = 'Y'
	tapSyncReq = "sync\n"
	tapHello   = "ltxtap1"
	tapOpener  = "opener"
	tapHeader  = 'H'
	tapText    = 'T'
	tapSkip    = 'S'
	tapMarker  = 'M'
	tapEnd     = 'E'
	tapRefusal = 'X'
	// tapMaxFrame bounds one frame's payload.
	tapMaxFrame = 1 << 20
)

// tapHeaderBody is an H frame's payload.
type tapHeaderBody struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// tapMarkPrefix starts the pipe mark of a tapped pane: "tap.<generation>
// <socket>", then ".<tap pid>" once the tap has started.
const tapMarkPrefix = "tap."

// tapMark returns the mark an instance opens a tap's pipe with.
func tapMark(gen [16]byte, socket string) string {
	return tapMarkPrefix + hex.EncodeToString(gen[:]) + " " + socket
}

// A tapInfo is what a tapped pane's mark says.
type tapInfo struct {
	mark   string // the whole mark
	gen    [16]byte
	socket string
	pid    int // 0 until the tap has recorded itself
}

// parseTapMark reads a tap's pipe mark.
func parseTapMark(mark string) (tapInfo, bool) {
	rest, ok := strings.CutPrefix(mark, tapMarkPrefix)
	if !ok || len(rest) < 34 || rest[32] != ' ' {
		return tapInfo{}, false
	}
	t := tapInfo{mark: mark}
	if _, err := hex.Decode(t.gen[:], []byte(rest[:32])); err != nil {
		return tapInfo{}, false
	}
	t.socket = rest[33:]
	if !strings.HasSuffix(t.socket, tapSocketSuffix) {
		i := strings.LastIndexByte(t.socket, '.')
		pid, err := strconv.Atoi(t.socket[i+1:])
		if i < 0 || err != nil {
			return tapInfo{}, false
		}
		t.socket, t.pid = t.socket[:i], pid
	}
	return t, true
}

// baseMark is the mark without the tap's pid: the prefix every guarded
// change to the pipe matches.
func (t tapInfo) baseMark() string { return tapMark(t.gen, t.socket) }

const tapSocketSuffix = ".sock"

// tapDir returns the private directory of the taps of the tmux server at
// socketPath for this user: one per server, named from its socket path.
func tapDir(socketPath string) string {
	h := fnv.New32a()
	h.Write([]byte(socketPath))
	name := fmt.Sprintf("tmux-mcp-taps-%d-%08x", os.Getuid(), h.Sum32())
	base := os.Getenv("TMUX_TMPDIR")
	if base == "" {
		base = os.TempDir()
	}
	// A unix socket's path is short (108 bytes on Linux, 104 with its
	// NUL on macOS and FreeBSD: at most 100 here): a long base
	// gives way to /tmp. So does one with a character that a tmux format
	// or a match pattern reads (#, %, *, …), or a shell: the socket's path
	// is in the pane's mark, which guarded commands match in formats.
	if len(base)+len(name)+1+16+len(tapSocketSuffix)+1 > 100 || !plainPath(base) {
		base = "/tmp"
	}
	return filepath.Join(base, name)
}

// plainPath reports whether path holds only letters, digits and "/._-".
func plainPath(path string) bool {
	for _, r := range path {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-", r)) {
			return false
		}
	}
	return true
}

// tapSocket returns the socket of the tap of generation gen in dir.
func tapSocket(dir string, gen [16]byte) string {
	return filepath.Join(dir, hex.EncodeToString(gen[:8])+tapSocketSuffix)
}

// writeFrame writes one frame.
func writeFrame(w io.Writer, kind byte, payload []byte) error {
	var head [5]byte
	head[0] = kind
	binary.BigEndian.PutUint32(head[1:], uint32(len(payload)))
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// readFrame reads one frame; buf is reused when it is large enough.
func readFrame(r *bufio.Reader, buf []byte) (kind byte, payload []byte, err error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > tapMaxFrame {
		return 0, nil, errors.New("tap frame too long")
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, nil, err
	}
	return head[0], buf, nil
}

func markerPayload(m frame.Marker) []byte {
	b, _ := json.Marshal(m)
	return b
}

func offsetPayload(off int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(off))
	return b[:]
}
