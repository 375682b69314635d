/* tr_memory.h — byte-granular shadow memory for task dependencies: for every byte, the task
   instance that wrote it last and the ones that read it since. Loads and stores of the running
   instance find read-after-write (always), write-after-read and write-after-write dependencies
   (on request) and tell tr_tasks.c, with the bytes and the objects involved. */
#ifndef TR_MEMORY_H
#define TR_MEMORY_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Which dependencies to find beyond read-after-write (TrDepKind bits), and the thread whose
   stack and objects the accesses are looked up in. */
void tr_memory_start(UInt kinds, ThreadId tid);
void tr_memory_stop(void);
/* --potential-tasks: from now on every access and stack rise goes to tr_potential.c. */
void tr_memory_potential(void);
/* While the instrumented code should call the helpers (read when translating). */
Bool tr_memory_instrumenting(void);
/* While tasks are traced (not --potential-tasks), the instrumented code checks inline whether
   an access needs the helpers: tr_memory_own_ir says whether the access of `size` bytes at
   `addr` is in the running instance's private frames (tr_task_private_top), which make no
   dependency (an I1, read when the code runs). */
Bool tr_memory_checks_inline(void);
IRExpr* tr_memory_own_ir(IRSB* sb, IRExpr* addr, Int size);
/* The running instance changed, or created one: its own and private frames with it
   (tr_task_stack_top, tr_task_private_top). */
void tr_memory_frames_moved(void);

/* Accesses are not tracked while paused (inside MPI calls: the library's own memory is not the
   program's; the buffers of a call are accounted with tr_memory_read/write instead). */
void tr_memory_pause(Bool paused);

/* What the running instance's accesses found (tr_tasks_uses, tr_tasks_depends) is told in
   runs: all of it now (before another instance runs, and before one is written). */
void tr_memory_tell(void);

/* The helpers the instrumented code calls before each access, unless its inline checks say the
   access is in the own frames, or changes nothing: tr_memory_changes_ir (an I1; NULL: no
   check) is false only when the access of `size` bytes at `addr` changes nothing. */
IRExpr* tr_memory_changes_ir(IRSB* sb, Bool store, IRExpr* addr, Int size);
VG_REGPARM(2) void tr_memory_load(Addr a, UWord size);
VG_REGPARM(2) void tr_memory_store(Addr a, UWord size);

/* Accesses of any size (MPI buffers), and forgetting what memory held (freed and reused blocks,
   dead stack frames, disabled objects). */
void tr_memory_read(Addr a, SizeT size);
void tr_memory_write(Addr a, SizeT size);
void tr_memory_forget(Addr a, SizeT size);

/* The instrumented code calls this when the traced thread's stack pointer rises from `old_sp`
   to `new_sp` (`returned`: by a return): the stack below is dead. */
VG_REGPARM(3) void tr_memory_stack_rises(Addr old_sp, Addr new_sp, UWord returned);

/* And this when a thread's stack pointer is lowered from `old_sp` to `new_sp` by an amount
   computed at run time, by the instruction at `ip`: memory the program allocated (alloca, a
   variable-length array), an object of its own (tr_stack.h). */
VG_REGPARM(3) void tr_memory_stack_allocated(Addr old_sp, Addr new_sp, Addr ip);

#endif
