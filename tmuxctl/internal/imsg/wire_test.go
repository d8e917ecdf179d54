package imsg

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestAppendThenNext(t *testing.T) {
	var b []byte
	b = Append(b, MsgCommand, []byte("abc"))
	b = Append(b, MsgIdentifyDone, nil)
	if len(b) != 2*HeaderSize+3 {
		t.Fatalf("encoded %d bytes", len(b))
	}
	// The header as tmux lays it out: type, length, peer id, pid.
	want := []byte{200, 0, 0, 0, 19, 0, 0, 0, 8, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 'a', 'b', 'c'}
	if !bytes.Equal(b[:19], want) {
		t.Errorf("header % x, want % x", b[:19], want)
	}
	d := NewDecoder(bytes.NewReader(b))
	for _, w := range []Message{{Type: MsgCommand, PeerID: 8, PID: 0xffffffff, Data: []byte("abc")}, {Type: MsgIdentifyDone, PeerID: 8, PID: 0xffffffff, Data: []byte{}}} {
		m, err := d.Next()
		if err != nil || m.Type != w.Type || m.PeerID != w.PeerID || m.PID != w.PID || !bytes.Equal(m.Data, w.Data) {
			t.Errorf("Next = %+v, %v; want %+v", m, err, w)
		}
	}
	if _, err := d.Next(); err != io.EOF {
		t.Errorf("at the end: %v, want io.EOF", err)
	}
}

func TestNextRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		in   []byte
		want error
	}{
		"cut in the header":   {Append(nil, MsgExit, []byte{0, 0, 0, 0})[:7], io.ErrUnexpectedEOF},
		"cut in the data":     {Append(nil, MsgExit, []byte{0, 0, 0, 0})[:18], io.ErrUnexpectedEOF},
		"length below header": {[]byte{203, 0, 0, 0, 15, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed},
		"length beyond limit": {[]byte{203, 0, 0, 0, 1, 0x40, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed},
		// 3.5a and older: IMSGF_HASFD in the 16 bits after the length.
		"descriptor flag, 3.5a": {[]byte{203, 0, 0, 0, 20, 0, 1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed},
		// 3.6a and later: bit 31 of the length.
		"descriptor bit, 3.6a": {[]byte{203, 0, 0, 0, 20, 0, 0, 0x80, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed},
	} {
		_, err := NewDecoder(bytes.NewReader(tc.in)).Next()
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
}

func TestPackCommand(t *testing.T) {
	b, _, ok := packCommand([]string{"list-panes", "-t", "%0"})
	if want := "\x03\x00\x00\x00list-panes\x00-t\x00%0\x00"; !ok || string(b) != want {
		t.Errorf("packCommand = %q, %v; want %q", b, ok, want)
	}
	for _, tc := range []struct {
		size int
		want string
	}{
		{MaxPayload - 4, ""},
		{MaxPayload - 3, "failed to send command\n"},
		{MaxMessage - 4, "failed to send command\n"},
		{MaxMessage - 3, "command too long\n"},
	} {
		_, res, ok := packCommand([]string{string(bytes.Repeat([]byte("x"), tc.size-1))})
		if ok != (tc.want == "") || string(res.Stderr) != tc.want || (!ok && res.Status != 1) {
			t.Errorf("%d bytes: ok %v, %q %d; want %q", tc.size, ok, res.Stderr, res.Status, tc.want)
		}
	}
}

// FuzzDecoder feeds the decoder arbitrary bytes: it must return messages
// within the limits or an error, never panic or read past a length.
func FuzzDecoder(f *testing.F) {
	f.Add(Append(nil, MsgExit, []byte{1, 0, 0, 0}))
	f.Add(Append(Append(nil, MsgWriteOpen, []byte{1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}), MsgWrite, []byte{1, 0, 0, 0, 'h', 'i'}))
	f.Add(Append(nil, MsgVersion, nil))
	f.Add([]byte{203, 0, 0, 0, 20, 0, 0, 0x80, 8, 0, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		d := NewDecoder(bytes.NewReader(in))
		used := 0
		for {
			m, err := d.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrMalformed) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			used += HeaderSize + len(m.Data)
			if len(m.Data) > MaxPayload || used > len(in) {
				t.Fatalf("message of %d bytes, %d of %d used", len(m.Data), used, len(in))
			}
			if !bytes.Equal(Append(nil, m.Type, m.Data)[:8], in[used-HeaderSize-len(m.Data):][:8]) {
				t.Fatalf("type and length do not round-trip")
			}
		}
	})
}
