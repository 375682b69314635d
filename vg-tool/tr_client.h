/* tr_client.h — strings the traced program passes to the tool (task names), read without
   trusting them: the pointer may be NULL or point nowhere, the string may never end, and its
   bytes need not be UTF-8, while every file the tool writes must be valid UTF-8. */
#ifndef TR_CLIENT_H
#define TR_CLIENT_H

#include "pub_tool_basics.h"

/* The longest name kept, in bytes (longer ones are cut on a character boundary). */
#define TR_NAME_MAX 200
#define TR_NAME_MAX_TEXT "200"

/* What was wrong with a string (bits). */
typedef enum {
   TR_NAME_NULL = 1,        /* a NULL pointer */
   TR_NAME_UNREADABLE = 2,  /* not readable memory */
   TR_NAME_CUT = 4,         /* longer than TR_NAME_MAX */
   TR_NAME_NOT_UTF8 = 8     /* bytes that are not UTF-8, each replaced by U+FFFD */
} TrNameProblem;

/* Copies the string at client address `a` into `name` (TR_NAME_MAX + 1 bytes), valid UTF-8 and
   NUL-terminated ("" when it cannot be read); returns the problems met (0: none). */
UInt tr_client_name(Addr a, HChar name[TR_NAME_MAX + 1]);

/* Copies `s` into `out` (`size` bytes, NUL included) as valid UTF-8: bytes that are not become
   U+FFFD, and a string too long is cut on a character boundary. Returns TR_NAME_CUT and
   TR_NAME_NOT_UTF8 as they apply. */
UInt tr_utf8_copy(const HChar* s, HChar* out, SizeT size);

#endif
