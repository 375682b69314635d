/* tr_file.h — the files of the trace set being written. Text waits in a buffer and reaches the
   file when the buffer is large or has waited long (tr_file_write_due), so that a process
   killed without warning (SIGKILL, the OOM killer, a job's time limit) loses at most the last
   moments of its trace. A write that fails (a full disk) is reported once, with the file, and
   the file gets nothing more: the set says the rank's trace stops there. */
#ifndef TR_FILE_H
#define TR_FILE_H

#include "pub_tool_basics.h"

#include "tr_text.h"

typedef struct {
   TrText text;
   Int fd;           /* -1: not open, or given up after a failed write */
   HChar* path;
   UInt written_ms;  /* when the buffer last reached the file */
} TrFile;

/* Creates (truncates) `path`; False, with a message, if it cannot. */
Bool tr_file_create(TrFile* file, const HChar* path);
/* Writes the buffer out when it holds 64 KiB or more, or anything older than a quarter of a
   second. */
void tr_file_write_due(TrFile* file);
/* Writes the buffer out and closes the file. */
void tr_file_close(TrFile* file);

/* Writes `text` as the whole of file `path`, atomically: into a temporary file renamed over it,
   so that the file is always a whole version. False, with a message, if it cannot. */
Bool tr_file_replace(const HChar* path, TrText* text);

/* From now on nothing reaches a file, quietly: this process is a forked copy of the traced one,
   whose files (and buffers not yet written) it shares. */
void tr_file_silence(void);

/* Why the trace stops early because of a failed write ("cannot write FILE ..."), or NULL. */
const HChar* tr_file_failure(void);

#endif
