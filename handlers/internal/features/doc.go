// Package features names the behaviours that differ between the tmux
// releases this server supports, as get_server_info reports them.
//
// Concurrency: the package holds only a read-only table; [Of] is safe for
// concurrent use.
package features
