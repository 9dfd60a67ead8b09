# gdb (python): the physical frames of the stopped thread, innermost first.
# Inline and tail-call frames are left out: they share a physical frame or
# have none, and a kernel-side unwinder sees only physical frames.
import gdb

f = gdb.newest_frame()
while f is not None:
    if f.type() not in (gdb.INLINE_FRAME, gdb.TAILCALL_FRAME):
        print('GDBFRAME %#x %s' % (f.pc(), f.name() or '??'))
    f = f.older()
print('GDBEND')
