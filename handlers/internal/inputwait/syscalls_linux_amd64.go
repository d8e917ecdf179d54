package inputwait

import "syscall"

// archPollCalls are the waits on several descriptors that amd64 has
// besides pselect6, ppoll and epoll_pwait.
var archPollCalls = []uintptr{syscall.SYS_POLL, syscall.SYS_SELECT, syscall.SYS_EPOLL_WAIT, 441 /* epoll_pwait2 */}
