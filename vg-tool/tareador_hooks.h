/* tareador_hooks.h — the earlier Tareador's header, for codes written for it: they compile and
   run unchanged. It is tareador.h (the same functions, client requests) plus that API's
   tareador_end_task() with no argument, which ends the innermost open task; a name may still be
   given. Linking -ltareador, as those codes do, is harmless: the calls here need no library. */
#ifndef TAREADOR_HOOKS_H
#define TAREADOR_HOOKS_H

#include <stdarg.h>

#include "tareador.h"

/* `name` is the optional argument of tareador_end_task, or NULL. */
static __attribute__((unused)) void tareador_hooks_end_task(int unused, ...)
{
   va_list arguments;
   const char* name;
   va_start(arguments, unused);
   name = va_arg(arguments, const char*);
   va_end(arguments);
   tareador_end_task(name);
}

#define tareador_end_task(...) tareador_hooks_end_task(0, ##__VA_ARGS__, (const char*)0)

#endif
