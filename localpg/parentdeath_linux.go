package localpg

import "syscall"

// stopWithParent has the kernel send postgres SIGINT (fast shutdown) when the process that started it
// dies without stopping it.
func stopWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGINT }
