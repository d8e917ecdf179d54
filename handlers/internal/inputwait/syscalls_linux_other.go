//go:build linux && !amd64

package inputwait

// archPollCalls are the waits on several descriptors this architecture
// has besides pselect6, ppoll and epoll_pwait: none that Go names for
// every other Linux architecture. epoll_pwait2 (441) is the same on all.
var archPollCalls = []uintptr{441}
