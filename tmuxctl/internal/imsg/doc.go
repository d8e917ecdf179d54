// Package imsg speaks tmux's client protocol: the imsg messages a `tmux`
// command client and the tmux server exchange over the server's socket.
// It owns the wire bytes (message types, the 16-byte header, the payloads
// of the messages a command client meets) and one command's exchange
// ([Run]): connect, identify, send the command, serve the server's file
// requests from memory, and return what the command printed and its exit
// status.
//
// It passes no file descriptors. The server then sends all output over the
// socket and asks for `-` input over it too, and the one place the wire
// differs between tmux versions (how a passed descriptor is marked: a
// 16-bit flags field up to 3.5a, bit 31 of a 32-bit length from 3.6a) never
// arises. That is why this client talks to every server from 3.2a to 3.7c,
// while a `tmux` binary older than 3.6 cannot talk to a 3.6 or later one.
//
// The facts come from tmux's sources (tmux.h, from 3.4 tmux-protocol.h;
// client.c, file.c, server-client.c, proc.c, compat/imsg.c) and were
// checked against tmux 3.2a, 3.3a, 3.4, 3.5a, 3.6a and 3.7c.
package imsg
