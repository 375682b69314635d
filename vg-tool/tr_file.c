/* tr_file.c — the files of the trace set being written (tr_file.h). VG_(write) does not give
   the error number: a failed write is almost always a full disk or a quota, and says so. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "tr_file.h"

#define WRITE_AT (64 * 1024)
#define WRITE_AFTER_MS 250

static HChar* failure;
static Bool silenced;  /* a forked copy of the process: the files are its parent's */

const HChar* tr_file_failure(void) { return failure; }

void tr_file_silence(void) { silenced = True; }

static void failed(const HChar* path)
{
   if (failure) return;
   failure = VG_(malloc)("tareador.file.failure", VG_(strlen)(path) + 64);
   VG_(sprintf)(failure, "cannot write %s (is the disk full?)", path);
   VG_(umsg)("tareador: %s: the trace stops there\n", failure);
}

static Int open_for_writing(const HChar* path)
{
   SysRes res = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
   if (sr_isError(res)) {
      VG_(umsg)("tareador: cannot create %s\n", path);
      return -1;
   }
   return (Int)sr_Res(res);
}

/* Writes all of `text` to `fd`; False if a write fails. */
static Bool write_all(Int fd, const TrText* text)
{
   SizeT done = 0;
   while (done < text->used) {
      Int n = VG_(write)(fd, text->data + done, (Int)(text->used - done));
      if (n <= 0) return False;
      done += (SizeT)n;
   }
   return True;
}

Bool tr_file_create(TrFile* file, const HChar* path)
{
   file->path = VG_(strdup)("tareador.file.path", path);
   file->fd = silenced ? -1 : open_for_writing(path);
   file->written_ms = VG_(read_millisecond_timer)();
   return silenced || file->fd >= 0;
}

static void write_out(TrFile* file)
{
   if (file->fd >= 0 && !silenced && !write_all(file->fd, &file->text)) {
      failed(file->path);
      VG_(close)(file->fd);
      file->fd = -1;
   }
   tr_text_clear(&file->text);
   file->written_ms = VG_(read_millisecond_timer)();
}

void tr_file_write_due(TrFile* file)
{
   if (file->text.used >= WRITE_AT ||
       (file->text.used > 0 && VG_(read_millisecond_timer)() - file->written_ms >= WRITE_AFTER_MS))
      write_out(file);
}

void tr_file_close(TrFile* file)
{
   write_out(file);
   if (file->fd >= 0) VG_(close)(file->fd);
   file->fd = -1;
   tr_text_free(&file->text);
   VG_(free)(file->path);
   file->path = NULL;
}

Bool tr_file_replace(const HChar* path, TrText* text)
{
   HChar* temporary;
   Int fd;
   Bool ok;
   if (silenced) return True;
   temporary = VG_(malloc)("tareador.file.tmp", VG_(strlen)(path) + 8);
   VG_(sprintf)(temporary, "%s.tmp", path);
   fd = open_for_writing(temporary);
   ok = fd >= 0 && write_all(fd, text);
   if (fd >= 0) VG_(close)(fd);
   ok = ok && VG_(rename)(temporary, path) == 0;
   if (!ok) {
      failed(path);
      VG_(unlink)(temporary);
   }
   VG_(free)(temporary);
   return ok;
}
