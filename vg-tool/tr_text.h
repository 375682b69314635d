/* tr_text.h — records of the native trace format as text (docs/trace-format.md), into growing
   buffers: the authentic stream, the sections of task instances, the manifests. */
#ifndef TR_TEXT_H
#define TR_TEXT_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"

typedef struct {
   HChar* data;
   SizeT used, size;
   Bool wait_open; /* the last record is a `wait` that joined waits continue */
} TrText;

void tr_text_append(TrText* text, const HChar* s);
void tr_text_printf(TrText* text, const HChar* format, ...) PRINTF_CHECK(2, 3);
/* A TOML basic string, quoted and escaped, valid UTF-8 whatever `s` holds. */
void tr_text_quoted(TrText* text, const HChar* s);
/* A field of a record line: `s` as it is when it has no blank, quote or backslash (and is not
   empty), else quoted as tr_text_quoted does. */
void tr_text_field(TrText* text, const HChar* s);

/* Record lines. A new record first ends a `wait` line left open. */
void tr_text_record(TrText* text, const HChar* format, ...) PRINTF_CHECK(2, 3);
void tr_text_burst(TrText* text, ULong instructions);
void tr_text_mpi(TrText* text, const TrEvent* event);
void tr_text_end_records(TrText* text);

void tr_text_free(TrText* text);

/* Empties `text` once written out (an open wait line stays open: joined waits continue it). */
void tr_text_clear(TrText* text);

#endif
