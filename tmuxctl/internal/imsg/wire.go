package imsg

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ProtocolVersion is tmux's PROTOCOL_VERSION (tmux.h; tmux-protocol.h from
// 3.4), 8 on every release from 3.2a to 3.7c. It travels in the low byte of
// each header's peer id; a server on another version answers [MsgVersion].
const ProtocolVersion = 8

// HeaderSize is the size of struct imsg_hdr (compat/imsg.h): type, length,
// peer id and pid, each 32 bits, in the host's byte order (little-endian
// here). Up to 3.5a the length is 16 bits followed by 16 bits of flags; a
// message that carries no descriptor has zero flags, so both read the same.
const HeaderSize = 16

// MaxMessage is MAX_IMSGSIZE (compat/imsg.h): no message, header included,
// may be longer. tmux drops a peer that sends one.
const MaxMessage = 16384

// MaxPayload is the most data one message can carry.
const MaxPayload = MaxMessage - HeaderSize

// A Type is an imsg message type, enum msgtype in tmux.h (tmux-protocol.h
// from 3.4). The numbers are the same on every release from 3.2a to 3.7c.
type Type uint32

const (
	MsgVersion Type = 12

	MsgIdentifyFlags     Type = 100
	MsgIdentifyTerm      Type = 101
	MsgIdentifyTTYName   Type = 102
	MsgIdentifyOldCwd    Type = 103 // unused by tmux
	MsgIdentifyStdin     Type = 104 // carries a descriptor: never sent here
	MsgIdentifyEnviron   Type = 105
	MsgIdentifyDone      Type = 106
	MsgIdentifyClientPID Type = 107
	MsgIdentifyCwd       Type = 108
	MsgIdentifyFeatures  Type = 109
	MsgIdentifyStdout    Type = 110 // carries a descriptor: never sent here
	MsgIdentifyLongFlags Type = 111
	MsgIdentifyTerminfo  Type = 112

	MsgCommand    Type = 200
	MsgDetach     Type = 201
	MsgDetachKill Type = 202
	MsgExit       Type = 203
	MsgExited     Type = 204
	MsgExiting    Type = 205
	MsgLock       Type = 206
	MsgReady      Type = 207
	MsgResize     Type = 208
	MsgShell      Type = 209
	MsgShutdown   Type = 210
	MsgOldStderr  Type = 211 // unused by tmux
	MsgOldStdin   Type = 212 // unused by tmux
	MsgOldStdout  Type = 213 // unused by tmux
	MsgSuspend    Type = 214
	MsgUnlock     Type = 215
	MsgWakeup     Type = 216
	MsgExec       Type = 217
	MsgFlags      Type = 218

	MsgReadOpen   Type = 300
	MsgRead       Type = 301
	MsgReadDone   Type = 302
	MsgWriteOpen  Type = 303
	MsgWrite      Type = 304
	MsgWriteReady Type = 305
	MsgWriteClose Type = 306
	MsgReadCancel Type = 307 // not in 3.2a
)

// Client flags a command client identifies with (tmux.h CLIENT_*). This
// client sends only [ClientUTF8]; the others are named so tests can check
// that it never sends them.
const (
	ClientNoStartServer  uint64 = 0x1000
	ClientControl        uint64 = 0x2000
	ClientControlControl uint64 = 0x4000
	ClientUTF8           uint64 = 0x10000 // tmux -u
	ClientDefaultSocket  uint64 = 0x8000000
	ClientStartServer    uint64 = 0x10000000
)

// A Message is one decoded imsg.
type Message struct {
	Type   Type
	PeerID uint32 // the sender's protocol version in the low byte
	PID    uint32
	Data   []byte
}

// Append appends the encoding of a message of type t carrying data to b.
// Like tmux's proc_send, the peer id is [ProtocolVersion] and the pid is -1.
func Append(b []byte, t Type, data []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(t))
	b = binary.LittleEndian.AppendUint32(b, uint32(HeaderSize+len(data)))
	b = binary.LittleEndian.AppendUint32(b, ProtocolVersion)
	b = binary.LittleEndian.AppendUint32(b, 0xffffffff)
	return append(b, data...)
}

// ErrMalformed means bytes that are not a well-formed imsg: a length
// shorter than the header or longer than [MaxMessage], or one with the
// high bits that mark a passed descriptor, which a server never sends a
// command client.
var ErrMalformed = errors.New("malformed tmux message")

// A Decoder reads messages from a stream.
type Decoder struct {
	r   *bufio.Reader
	hdr [HeaderSize]byte
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next message. At a clean end of the stream between
// messages it returns io.EOF; a stream that ends inside a message gives
// io.ErrUnexpectedEOF, and bytes that are not a message [ErrMalformed].
// The returned Data is the caller's.
func (d *Decoder) Next() (Message, error) {
	if _, err := io.ReadFull(d.r, d.hdr[:]); err != nil {
		return Message{}, err
	}
	m, n, err := parseHeader(d.hdr[:])
	if err != nil {
		return Message{}, err
	}
	m.Data = make([]byte, n)
	if _, err := io.ReadFull(d.r, m.Data); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return Message{}, err
	}
	return m, nil
}

// parseHeader decodes a header and returns the message without its data
// and the data's length.
func parseHeader(h []byte) (Message, int, error) {
	m := Message{
		Type:   Type(binary.LittleEndian.Uint32(h[0:])),
		PeerID: binary.LittleEndian.Uint32(h[8:]),
		PID:    binary.LittleEndian.Uint32(h[12:]),
	}
	length := binary.LittleEndian.Uint32(h[4:])
	if length < HeaderSize || length > MaxMessage {
		return Message{}, 0, fmt.Errorf("%w: type %d, length %#x", ErrMalformed, m.Type, length)
	}
	return m, int(length) - HeaderSize, nil
}
