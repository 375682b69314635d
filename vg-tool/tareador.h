/* tareador.h — annotating a program for Tareador: which parts of a run would be tasks.

   Compile it in and run the program under the tool (`tareador ./app`): the tool records the
   tasks, the memory they read and write, and the dependencies between them. Run natively, the
   calls do nothing (they are Valgrind client requests: no library to link).

     tareador_ON();                        start tracing (a program without MPI is traced only
                                           between tareador_ON and tareador_OFF)
     tareador_start_task("name");          a task of type "name" begins; tasks nest, and code
     ...                                   outside any task belongs to the enclosing one (the
     tareador_end_task("name");            main task)
     tareador_disable_object(&sum);        the object holding that address (a global, a heap
     tareador_enable_object(&sum);         block or a local variable) makes no dependency until
                                           enabled again (a reduction variable, say)
     tareador_OFF();

   Codes that declare these functions themselves can link -ltareador instead; codes written for
   the earlier Tareador include tareador_hooks.h. */
#ifndef TAREADOR_H
#define TAREADOR_H

#include <valgrind/valgrind.h>

#define TAREADOR_REQUEST(n) (VG_USERREQ_TOOL_BASE('T', 'R') + (n))

#ifdef __cplusplus
extern "C" {
#endif

/* Never inlined: a request builds its argument block in the frame of the function that makes
   it, and that frame must be the API's own (below the annotated code's frame), not the
   annotated function's, whose locals the tool watches. noipa also keeps the compiler from
   cloning the function under another name. */
#if defined(__GNUC__) && !defined(__clang__)
#define TAREADOR_API static __attribute__((noipa, unused))
#elif defined(__GNUC__)
#define TAREADOR_API static __attribute__((noinline, unused))
#else
#define TAREADOR_API static
#endif

TAREADOR_API void tareador_ON(void)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TAREADOR_REQUEST(0), 0, 0, 0, 0, 0);
}

TAREADOR_API void tareador_OFF(void)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TAREADOR_REQUEST(1), 0, 0, 0, 0, 0);
}

TAREADOR_API void tareador_start_task(const char* name)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TAREADOR_REQUEST(2), name, 0, 0, 0, 0);
}

/* NULL ends the innermost open task, whatever its name. */
TAREADOR_API void tareador_end_task(const char* name)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TAREADOR_REQUEST(3), name, 0, 0, 0, 0);
}

TAREADOR_API void tareador_disable_object(const void* address)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TAREADOR_REQUEST(4), address, 0, 0, 0, 0);
}

TAREADOR_API void tareador_enable_object(const void* address)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TAREADOR_REQUEST(5), address, 0, 0, 0, 0);
}

#ifdef __cplusplus
}
#endif

#endif
