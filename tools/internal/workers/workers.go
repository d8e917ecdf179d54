package workers

import "time"

// idleFor is how long a goroutine waits for more work before it exits.
const idleFor = 10 * time.Second

// A Pool runs each function it is given at once, on a goroutine of its
// own: an idle one if there is one, else a new one. Its zero value is not
// ready; use New.
type Pool struct {
	work chan func()
}

// New returns an empty Pool.
func New() *Pool { return &Pool{work: make(chan func())} }

// Go runs f on a goroutine of the pool and returns at once. Functions
// never wait for one another: with no goroutine idle, a new one starts.
func (p *Pool) Go(f func()) {
	select {
	case p.work <- f: // an idle goroutine took it
	default:
		go p.serve(f)
	}
}

// serve runs f, then whatever else it is handed, until it has been idle
// for idleFor.
func (p *Pool) serve(f func()) {
	idle := time.NewTimer(idleFor)
	defer idle.Stop()
	for {
		f()
		idle.Reset(idleFor)
		select {
		case f = <-p.work:
		case <-idle.C:
			return
		}
	}
}
