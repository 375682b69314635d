/* libtareador — the Tareador API as functions, for codes that link -ltareador and declare them
   themselves. Each forwards to the client request of tareador.h. */
#define tareador_ON tareador_ON_request
#define tareador_OFF tareador_OFF_request
#define tareador_start_task tareador_start_task_request
#define tareador_end_task tareador_end_task_request
#define tareador_disable_object tareador_disable_object_request
#define tareador_enable_object tareador_enable_object_request
#include "tareador.h"
#undef tareador_ON
#undef tareador_OFF
#undef tareador_start_task
#undef tareador_end_task
#undef tareador_disable_object
#undef tareador_enable_object

void tareador_ON(void) { tareador_ON_request(); }
void tareador_OFF(void) { tareador_OFF_request(); }
void tareador_start_task(const char* name) { tareador_start_task_request(name); }
void tareador_end_task(const char* name) { tareador_end_task_request(name); }
void tareador_disable_object(const void* address) { tareador_disable_object_request(address); }
void tareador_enable_object(const void* address) { tareador_enable_object_request(address); }
