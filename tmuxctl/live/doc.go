// Package live follows what happens in the panes of one tmux server while
// tmux-mcp runs: their output ([Stream]), their deaths, and their programs'
// exit statuses ([ExitTracker]). The stateless command client, tmuxctl,
// runs the commands; this package owns everything that lasts longer than
// one command.
//
// # No client is ever attached
//
// Pane output comes from `pipe-pane -O` into a private FIFO per watched
// pane: a `cat` relay that tmux starts copies the pane's raw output into
// it, whatever session the pane is in or moves to. No control-mode client
// is ever attached to a session, because on every tmux before 3.7 a control
// client that is sent a notification while its handshake is still under
// way (another client detaching, a window added, a rename) makes the tmux
// server dereference a NULL control state and crash with every session in
// it (fixed upstream by "Do not notify clients if not fully initialized",
// tmux issue 4980). An attached client would also resize windows on tmux
// 3.2a, show in `tmux ls`, and fire the user's client-attached hooks.
// Commands go over short-lived command clients, which are never notified.
//
// pipe-pane always closes a pane's existing pipe before opening one, so a
// pane is piped only after checking, in the same tmux command list, that
// it has no pipe; a pane someone else pipes gets [tmuxctl.PipeTakenError].
// tmux delays closing a pane until its pipe has taken all the pane's
// output, so a stream of a pane that closes ends with its last byte.
//
// # Taps
//
// With [Options.TapBinary] set (the server sets it to its own binary
// where [ReadersChecked]: Linux, macOS, FreeBSD), a watched pane's
// pipe-pane runs that binary as the pane's tap ([RunTap]) instead of a
// `cat` into a FIFO, through the same guarded open. The tap owns the pane's stream — the filtered text in a ring
// bounded by --stream-buffer, its frame markers, the generation — and
// serves any number of readers of the same user on a unix socket in a
// private 0700 directory per tmux server ($TMUX_TMPDIR or the temporary
// directory, named from the uid and the server's socket path), checking
// each reader's uid (peercred.go: SO_PEERCRED on Linux, LOCAL_PEERCRED on
// macOS and FreeBSD). The pane's mark ("tap.<generation> <socket>", then
// ".<tap pid>") is how every instance finds it. A reader
// asks for "generation G from offset N" (tapwire.go) and gets the text
// from there, a skip for what the ring no longer holds, then live text;
// each instance's [Stream] of the pane is a mirror with the tap's offsets,
// so a cursor is the tap's: valid in every instance, and across restarts
// while the tap lives. What belongs to one instance stays there: its echo
// discount, its commands (found by nonce in the shared markers), its holds.
//
// A tap ends at its pipe's end (the pane closed, or someone closed or
// replaced the pipe: it then clears its mark first and never touches the
// pipe) or after --stream-idle with no reader (it closes its pipe, guarded
// by its mark, and clears the mark). An instance leaving a tap only
// closes its connection. A gated program ([Hub.WatchPiped] with an ack)
// is read through its tap too, so other instances can watch it; only the
// instance that started it knows the nonce of its exit marker, and only
// that one acks it, when the marker comes through after all the output.
//
// A tap outlives its pipe until the instance that opened the pipe has
// connected (it says so in its request) and every reader that connected
// has taken the end — a program that prints and exits at once can end
// the pipe before its tap even listens — bounded by the opener's own
// patience (tapOpenerPatience) and then tapDrainGrace. A reader that
// connected as the tap ends is still served: the tap removes its socket's
// name first, so no later one can come, then takes all that are queued.
//
// A tap this instance starts tells it when it listens, with a datagram on
// a socket in the hub's private directory (tapready.go), so the first
// dial need not wait for its next polling step; it records its pid once
// that instance has connected. A program's pane made by [Hub.PrepareTap]
// and [Hub.WatchCreated] gets its tap's pipe and mark in the command list
// that makes it ([tmuxctl.CreationPipe]): one round trip fewer before the
// tap starts, and no check for someone else's pipe on a pane that did not
// exist.
//
// # Deaths
//
// A pane that closes ends its pipe (the FIFO reaches EOF). A pane kept
// open by remain-on-exit keeps its pipe, so its death is learned from one
// entry this hub adds to the global pane-died hook array, which signals a
// tmux wait-for channel one listener child waits on — except in read-only
// mode, where nothing may be set: waiters then ask tmux once a second.
//
// # Traces
//
// Everything this package changes in tmux is marked in tmux itself: the
// pane user options [tmuxctl.PipeOption] and [tmuxctl.HoldOption] name the
// instance (its process id) and what to put back, and the hook entry's
// channel names the instance too. [New] starts by sweeping the marks of
// instances that no longer run — closing their pipes, putting back
// remain-on-exit, closing the dead panes they kept, removing their hook
// entries and releasing their listeners, and deleting their temporary
// directories — so whatever killed an instance, nothing of it outlives the
// next start. Children of this process die with it where the OS allows
// (Linux, FreeBSD); the sweep covers the rest.
//
// A hold serves every instance that waits on the pane: one that finds the
// pane held by another joins it in [tmuxctl.CoHoldOption], and whichever
// instance holds it, done (or swept), hands the hold to the first
// co-holder still running; only the last puts remain-on-exit back.
//
// # Concurrency
//
// Each [Stream] is fed by one goroutine, its FIFO reader. The [Hub]'s maps
// are guarded by Hub.mu, each stream's state by its own mutex, and the
// tracker's holds by ExitTracker.mu; the order is Hub.mu, then Stream.mu;
// ExitTracker.mu is never held while calling the hub or tmux. Deaths
// reach the tracker on a channel the tracker owns and drains in its own
// goroutine. Every goroutine the hub starts, but Close's own helpers, goes
// through Hub.goFunc, which
// refuses new ones once Close has begun waiting; [Hub.Close] waits for
// them all:
//
//	goroutine              started by                    stopped by                                   waited for by
//	start-up sweep         New                           its end, or its 20 s bound                   Close (Hub.wg)
//	FIFO opener (1/pane)   a watch (newFIFO)             the relay opening the FIFO; fifo.release     Close (Hub.wg)
//	FIFO reader (1/pane)   a watch (startFeeding)        the pipe's EOF; stopReading at Close         Close (Hub.wg)
//	tap follower (1/pane)  a watch (joinTap, followOwnTap) the tap's end; closeTap (Close, expiry)     Close (Hub.wg)
//	relay recorder         the reader, once per relay    its tmux command (5 s bound)                 Close (Hub.wg)
//	death listener         the first watch or hold       deathListener.stop (signal, then cancel)     Close, then Hub.wg
//	tracker loop           New (newExitTracker)          Hub.done                                     Close (Hub.wg)
//	hold ender             a grace timer, a death        its tmux commands (bounded by Hub.ctx)       Close (Hub.wg)
//	settler (short)        a death of a watched pane     the pipe draining, a second, or Hub.done     Close (Hub.wg)
//	expirer (short)        a stream's idle timer         its tmux command (5 s bound)                 Close (Hub.wg)
//	pipe closers, enders   Close itself                  their tmux commands (closeTimeout)           Close (sync.WaitGroup)
//
// The timers behind the hold ender and the expirer (time.AfterFunc) only
// call goFunc, which does nothing once Close has begun; the timer that
// forgets an exit record only takes ExitTracker.mu. Neither is waited
// for: each returns at once.
//
// A tap process ([RunTap]) has its own few goroutines: the stdin reader
// (ends at the pipe's end), the acceptor (ends when the listener closes),
// one server per reader (ends when its reader leaves or the tap ends:
// the tap closes every connection and waits for them), and the signal
// and idle watchers, which only start the tap's end. A reader's place in
// the stream (its offset, the markers it is owed, its socket's writes) is
// owned by whoever holds its tapReader.mu: its server, but while the
// server is idle at the ring's end with nothing else to send; the stdin
// reader then sends it new output itself, right after appending it, with
// no goroutine switch before the socket write. The stdin reader only
// tries that lock, and only writes what the socket takes without waiting:
// the rest goes back to the server, which the append has woken, so a
// reader that does not read never holds up the pane's pipe.
package live
