// Package live follows what happens in the panes of one tmux server while
// tmux-mcp runs: their output ([Stream]), their deaths, and their programs'
// exit statuses ([ExitTracker]). The stateless command client, tmuxctl,
// runs the commands; this package owns everything that lasts longer than
// one command.
//
// # No client is ever attached
//
// Pane output comes from `pipe-pane -O`, whatever session the pane is in
// or moves to: the stream host (below) reads tmux's socket itself, or a
// `cat` relay that tmux starts copies the pane's raw output into a FIFO,
// the host's or, with TMUX_MCP_NO_TAPS, this instance's own. No control-mode client
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
// # The stream host
//
// With [Options.TapBinary] set (the server sets it to its own binary
// where [ReadersChecked]: Linux, macOS, FreeBSD), every watched pane's
// stream lives in one process per tmux server and user, the stream host
// ([RunHost], host.go), shared by every instance. Each pane's stream in
// it (a tap, tap.go) holds the filtered text in a ring bounded by
// --stream-buffer, its frame markers and its generation. The host serves
// readers of the same user on one unix socket, "host<version>.sock", in
// a private 0700 directory per tmux server ($TMUX_TMPDIR or the
// temporary directory, named from the uid and the server's socket path),
// checking each reader's uid (peercred.go: SO_PEERCRED on Linux,
// LOCAL_PEERCRED on macOS and FreeBSD). The pane's mark ("tap.<generation>
// <host socket>.<host pid>") is how every instance finds the stream. A
// reader asks for "generation G from offset N" (tapwire.go) and gets the
// text from there, a skip for what the ring no longer holds, then live
// text; the generation routes the request to its pane's stream. Each
// instance's [Stream] of the pane is a mirror with the host's offsets, so
// a cursor is the host's: valid in every instance, and across restarts
// while the host lives. What belongs to one instance stays there: its
// echo discount, its commands (found by nonce in the shared markers),
// its holds. (Panes tapped by an older version's per-pane tap process,
// with the same mark and wire, are read the same way.)
//
// A pane's relay is a shell that the host answers: the instance asks the
// host for a stream ("ltxhost<version> new <generation> …" on the same
// socket), the host makes a FIFO and a word FIFO (".ack") in its
// directory and holds both open, and the instance's guarded pipe-pane
// runs the relay (hostRelayCommand). Its shell keeps the pane's pipe on
// descriptor 4, writes "<pid> <pane>" into the FIFO (a pane being made
// gets its id from tmux, [tmuxctl.CreationPipe]) and waits for the word.
// On Linux the host then takes the pipe, tmux's socket, from the shell
// (pidfd_getfd, relaytake_linux.go), checks that the shell still holds
// the FIFO (so the pid was still its), and says nothing: the shell exits,
// the host reads the pane's output from tmux itself, and no process stays
// per pane. Where it cannot (macOS, FreeBSD, a kernel that refuses, or
// TMUX_MCP_TEST_RELAY_CAT=1), it says "c" and the shell becomes a cat of
// its line (from a head file) and then of the pipe into the FIFO; the
// cat's line says it reads. Either way the relay has come only once
// something reads the pane's pipe: the host answers a sync only then,
// and a program the instance starts is let run only then
// ([Stream.AwaitRelay]), so that what it prints is taken at once and is
// in the stream before its death is heard. No process of ours starts per
// pane: a create tool pays one local round trip to the host, which runs
// already, and asks it while tmux makes the pane ([Hub.AskAhead]; a
// program's window has its pipe in the command that makes it, [NewTap]).
// An instance that could not open the pipe says "drop"; a relay
// that never comes is dropped after hostRelayPatience.
//
// The first instance that needs the host starts it: its own binary with
// [HostWord], in a session of its own, with no stdio, never killed with
// that instance (which reaps it while it runs). Of two hosts starting at
// once the one that takes the lock file "host<version>.lock" listens; the
// other exits, and the instances dial the winner. A host ends once it has
// had no stream for its grace (2 s): it removes its socket's name, then
// its lock, and the directory if nothing else is in it. A host of another
// protocol version has its own socket, lock and FIFO names, so versions
// never talk over control requests; the reader wire, versioned itself
// (ltxtap1), is shared, and a pane piped by another version's host is
// read through it.
//
// A pane's stream ends at its pipe's end (the pane closed, or someone
// closed or replaced the pipe: the host then clears its mark first and
// never touches the pipe) or after --stream-idle with no reader (it
// closes its pipe, guarded by its mark, and clears the mark). An
// instance leaving a stream only closes its connection. A gated program
// ([Hub.WatchPiped] with an ack) is read through the host too, so other
// instances can watch it; only the instance that started it knows the
// nonce of its exit marker, and only that one acks it, when the marker
// comes through after all the output. A stream outlives its pipe until
// the instance that opened the pipe has connected (it says so in its
// request) and every reader that connected has taken the end, bounded by
// tapOpenerPatience and then tapDrainGrace.
//
// If the host dies, every reader's connection ends without an end frame:
// each instance fails the stream with [ConnectionLost] (a cursor of that
// generation is refused with it) and closes the pipe, guarded by its
// mark; tmux closes the pipe at its next write either way: its socket's
// reader (the host, or a cat that gets EPIPE and ends) is gone. A mark naming a dead host is gone to the next watch,
// which starts a new host, and to the sweep. Where no host can be
// started at all, the hub reads panes through FIFOs of its own, as with
// TMUX_MCP_NO_TAPS.
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
//	host follower (1/pane) a watch (joinTap, followOwnTap) the stream's end; closeTap (Close, expiry)  Close (Hub.wg)
//	host reaper            the host's start (startHost)  the host's exit                              nobody: the host outlives the hub
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
// The stream host ([RunHost]) has its own goroutines: the acceptor (ends
// when the listener closes), one dispatcher per connection (reads the
// request, answers a control request or hands a reader to its stream),
// and per stream the pipe's reader (tmux's socket, or the cat's FIFO;
// "the FIFO reader" below; ends at the pipe's end), its runner
// (waits for the relay, then for the end, then serves the rest), and one
// server per reader (ends when its reader leaves or the stream ends: it
// closes every connection and waits for them). streamHost.mu guards the
// streams by generation and is taken before a stream's tap.mu, which
// admits a reader only until the stream has finished serving. A reader's
// place in the stream (its offset, the markers it is owed, its socket's
// writes) is owned by whoever holds its tapReader.mu: its server, but
// while the server is idle at the ring's end with nothing else to send;
// the FIFO reader then sends it new output itself, right after appending
// it, with no goroutine switch before the socket write. The FIFO reader
// only tries that lock, and only writes what the socket takes without
// waiting: the rest goes back to the server, which the append has woken,
// so a reader that does not read never holds up the pane's pipe.
package live
