package live

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestRing(t *testing.T) {
	type read struct {
		off    int64
		limit  int
		data   string
		missed int64
	}
	tests := []struct {
		name       string
		capacity   int
		appends    []string
		start, end int64
		reads      []read
	}{
		{
			name: "empty", capacity: 4,
			start: 0, end: 0,
			reads: []read{{0, -1, "", 0}, {0, 10, "", 0}},
		},
		{
			name: "under capacity", capacity: 8, appends: []string{"abc", "de"},
			start: 0, end: 5,
			reads: []read{
				{0, -1, "abcde", 0}, {2, -1, "cde", 0}, {5, -1, "", 0},
				{0, 2, "ab", 0}, {3, 0, "", 0}, {1, 100, "bcde", 0},
			},
		},
		{
			name: "exactly full", capacity: 5, appends: []string{"abc", "de"},
			start: 0, end: 5,
			reads: []read{{0, -1, "abcde", 0}, {4, -1, "e", 0}},
		},
		{
			name: "wrapped", capacity: 4, appends: []string{"abc", "def", "g"},
			start: 3, end: 7,
			reads: []read{
				{0, -1, "defg", 3}, {3, -1, "defg", 0}, {5, -1, "fg", 0},
				{1, 2, "de", 2}, {7, -1, "", 0}, {4, 2, "ef", 0},
			},
		},
		{
			name: "one append larger than capacity", capacity: 4, appends: []string{"ab", "0123456789"},
			start: 8, end: 12,
			reads: []read{{0, -1, "6789", 8}, {9, -1, "789", 0}},
		},
		{
			name: "append of exactly capacity", capacity: 3, appends: []string{"x", "abc"},
			start: 1, end: 4,
			reads: []read{{0, -1, "abc", 1}},
		},
		{
			name: "empty appends change nothing", capacity: 3, appends: []string{"", "ab", ""},
			start: 0, end: 2,
			reads: []read{{0, -1, "ab", 0}},
		},
		{
			name: "capacity one", capacity: 1, appends: []string{"a", "b", "cd"},
			start: 3, end: 4,
			reads: []read{{0, -1, "d", 3}, {4, -1, "", 0}},
		},
	}
	for _, tt := range tests {
		r := newRing(tt.capacity)
		for _, a := range tt.appends {
			r.Append([]byte(a))
		}
		if r.Start() != tt.start || r.End() != tt.end {
			t.Errorf("%s: Start, End = %d, %d; want %d, %d", tt.name, r.Start(), r.End(), tt.start, tt.end)
		}
		for _, rd := range tt.reads {
			data, missed, err := r.ReadFrom(rd.off, rd.limit)
			if err != nil || string(data) != rd.data || missed != rd.missed {
				t.Errorf("%s: ReadFrom(%d, %d) = %q, %d, %v; want %q, %d", tt.name, rd.off, rd.limit, data, missed, err, rd.data, rd.missed)
			}
		}
	}
}

func TestRingReadFromErrors(t *testing.T) {
	r := newRing(4)
	r.Append([]byte("abcdef"))
	if _, _, err := r.ReadFrom(7, -1); !errors.Is(err, errAheadOfStream) {
		t.Errorf("ReadFrom past End: %v; want errAheadOfStream", err)
	}
	if _, _, err := r.ReadFrom(-1, -1); err == nil || errors.Is(err, errAheadOfStream) {
		t.Errorf("ReadFrom(-1): %v; want a negative-offset error", err)
	}
}

func TestRingCopies(t *testing.T) {
	r := newRing(4)
	p := []byte("ab")
	r.Append(p)
	p[0] = 'X' // the ring must not keep the caller's slice
	data, _, _ := r.ReadFrom(0, -1)
	r.Append([]byte("cdef")) // nor may the caller's copy change under it
	if string(data) != "ab" {
		t.Errorf("got %q; want %q", data, "ab")
	}
}

// TestRingGrowsLazily checks that a quiet pane's ring costs little: memory
// follows the bytes held, not the capacity.
func TestRingGrowsLazily(t *testing.T) {
	r := newRing(1 << 20)
	r.Append([]byte("prompt$ "))
	if c := cap(r.buf); c > 4096 {
		t.Errorf("cap after 8 bytes = %d; want it small", c)
	}
	r.Append(bytes.Repeat([]byte("x"), 3<<20))
	if c := cap(r.buf); c != 1<<20 {
		t.Errorf("cap when full = %d; want %d", c, 1<<20)
	}
}

func TestNewRingPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("newRing(0) did not panic")
		}
	}()
	newRing(0)
}

func BenchmarkRingAppend(b *testing.B) {
	r := newRing(1 << 20)
	p := []byte(strings.Repeat("0123456789abcdef", 256)) // 4 KiB, about one %output line
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		r.Append(p)
	}
}

// FuzzRing drives a ring with appends and reads taken from the fuzz input
// and checks every answer against a model that keeps everything.
func FuzzRing(f *testing.F) {
	f.Add(byte(4), []byte("\x00abc\x01\x00\x02defgh\x01\x01"))
	f.Add(byte(1), []byte("\x00x\x00yz\x01\x00\x01\x03"))
	f.Add(byte(16), bytes.Repeat([]byte("\x00\x10\x01\x07"), 20))
	f.Fuzz(func(t *testing.T, capacity byte, ops []byte) {
		size := int(capacity%64) + 1
		r := newRing(size)
		var all []byte // the model: every byte ever appended
		for len(ops) >= 2 {
			op, arg := ops[0], int(ops[1])
			ops = ops[2:]
			switch op % 3 {
			case 0: // append the next arg%100 bytes of ops
				n := min(arg%100, len(ops))
				r.Append(ops[:n])
				all = append(all, ops[:n]...)
				ops = ops[n:]
			default: // read from an offset around the retained window
				end := int64(len(all))
				start := max(0, end-int64(size))
				off := end - int64(arg%(2*size+4)) + 2 // sometimes past End
				limit := -1
				if op%3 == 2 {
					limit = arg % 7
				}
				data, missed, err := r.ReadFrom(off, limit)
				if r.End() != end || r.Start() != start {
					t.Fatalf("Start, End = %d, %d; model %d, %d", r.Start(), r.End(), start, end)
				}
				switch {
				case off < 0:
					if err == nil {
						t.Fatalf("ReadFrom(%d) succeeded", off)
					}
					continue
				case off > end:
					if !errors.Is(err, errAheadOfStream) {
						t.Fatalf("ReadFrom(%d) past End %d: %v", off, end, err)
					}
					continue
				case err != nil:
					t.Fatalf("ReadFrom(%d, %d): %v", off, limit, err)
				}
				from := max(off, start)
				want := all[from:]
				if limit >= 0 && len(want) > limit {
					want = want[:limit]
				}
				if !bytes.Equal(data, want) || missed != from-off {
					t.Fatalf("ReadFrom(%d, %d) = %q, %d; model %q, %d", off, limit, data, missed, want, from-off)
				}
			}
		}
	})
}
