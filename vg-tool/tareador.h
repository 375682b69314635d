/* tareador.h — annotating a program for Tareador: which parts of a run would be tasks.

   Compile it in and run the program under the tool (`tareador ./app`): the tool records the
   tasks, the memory they read and write, and the dependencies between them. Run natively, the
   calls do nothing (they are Valgrind client requests: no library to link).

     tareador_ON();                        start tracing (a program without MPI is traced only
                                           between tareador_ON and tareador_OFF)
     tareador_start_task("name");          a task of type "name" begins; tasks nest, and code
     ...                                   outside any task belongs to the enclosing one (the
     tareador_end_task("name");            main task)
     tareador_disable_object(&sum);        the object holding that address makes no dependency
     tareador_enable_object(&sum);         until enabled again (a reduction variable, say)
     tareador_OFF();

   Codes that declare these six functions themselves can link -ltareador instead. */
#ifndef TAREADOR_H
#define TAREADOR_H

#include <valgrind/valgrind.h>

#define TAREADOR_REQUEST(n) (VG_USERREQ_TOOL_BASE('T', 'R') + (n))

#ifdef __cplusplus
extern "C" {
#endif

/* Always inlined: the request then runs in the annotated code's own frame, with no call. */
#if defined(__GNUC__)
#define TAREADOR_API static inline __attribute__((always_inline))
#else
#define TAREADOR_API static inline
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
