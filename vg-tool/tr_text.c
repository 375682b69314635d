/* tr_text.c — records as text. */

#include <stdarg.h>

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "tr_client.h"
#include "tr_text.h"

static void reserve(TrText* text, SizeT more)
{
   if (text->used + more + 1 <= text->size) return;
   while (text->used + more + 1 > text->size) text->size = text->size ? 2 * text->size : 4096;
   text->data = VG_(realloc)("tareador.text", text->data, text->size);
}

void tr_text_append(TrText* text, const HChar* s)
{
   SizeT n = VG_(strlen)(s);
   reserve(text, n);
   VG_(memcpy)(text->data + text->used, s, n);
   text->used += n;
   text->data[text->used] = 0;
}

static void append_va(TrText* text, const HChar* format, va_list args)
{
   HChar line[512];
   VG_(vsnprintf)(line, sizeof line, format, args);
   tr_text_append(text, line);
}

void tr_text_printf(TrText* text, const HChar* format, ...)
{
   va_list args;
   va_start(args, format);
   append_va(text, format, args);
   va_end(args);
}

void tr_text_quoted(TrText* text, const HChar* s)
{
   SizeT size = 3 * VG_(strlen)(s) + 1;
   HChar* clean = VG_(malloc)("tareador.text.quoted", size);
   const HChar* c;
   /* Valid UTF-8 (TOML requires it), with the characters TOML forbids escaped. */
   tr_utf8_copy(s, clean, size);
   tr_text_append(text, "\"");
   for (c = clean; *c; c++) {
      UChar u = (UChar)*c;
      if (u == '"' || u == '\\') tr_text_printf(text, "\\%c", u);
      else if (u < 0x20 || u == 0x7F) tr_text_printf(text, "\\u%04x", (UInt)u);
      else tr_text_printf(text, "%c", u);
   }
   tr_text_append(text, "\"");
   VG_(free)(clean);
}

void tr_text_field(TrText* text, const HChar* s)
{
   const HChar* c;
   Bool bare = *s != 0;
   for (c = s; *c && bare; c++) bare = (UChar)*c > 0x20 && *c != '"' && *c != '\\' && (UChar)*c != 0x7F;
   if (bare) tr_text_append(text, s);
   else tr_text_quoted(text, s);
}

void tr_text_end_records(TrText* text)
{
   if (text->wait_open) tr_text_append(text, "\n");
   text->wait_open = False;
}

void tr_text_record(TrText* text, const HChar* format, ...)
{
   va_list args;
   tr_text_end_records(text);
   va_start(args, format);
   append_va(text, format, args);
   va_end(args);
   tr_text_append(text, "\n");
}

void tr_text_burst(TrText* text, ULong instructions)
{
   if (instructions > 0) tr_text_record(text, "cpu %llu", instructions);
}

static const HChar* mode_name(Int mode)
{
   switch (mode) {
      case TR_MODE_RDV: return "rdv";
      case TR_MODE_SYNC: return "sync";
      case TR_MODE_BUF: return "buf";
      default: return "eager";
   }
}

void tr_text_mpi(TrText* text, const TrEvent* e)
{
   switch (e->kind) {
      case TR_EV_SEND:
         tr_text_end_records(text);
         tr_text_printf(text, "%s %d %lld %d %lld %s", e->immediate ? "isend" : "send", e->peer, e->tag,
                        e->comm, e->bytes, mode_name(e->mode));
         if (e->immediate) tr_text_printf(text, " %lld", e->request);
         if (e->lines > 0) tr_text_printf(text, " lines=%lld", e->lines);
         tr_text_append(text, "\n");
         break;
      case TR_EV_RECV:
         if (e->immediate)
            tr_text_record(text, "irecv %d %lld %d %lld %lld", e->peer, e->tag, e->comm, e->bytes,
                           e->request);
         else
            tr_text_record(text, "recv %d %lld %d %lld", e->peer, e->tag, e->comm, e->bytes);
         break;
      case TR_EV_WAIT:
         if (e->joined && text->wait_open) {
            tr_text_printf(text, " %lld", e->request);
         } else {
            tr_text_end_records(text);
            tr_text_printf(text, "wait %lld", e->request);
            text->wait_open = True;
         }
         break;
      case TR_EV_COLL:
         if (e->immediate)
            tr_text_record(text, "icoll %s %d %d %lld %lld %lld", e->name, e->comm, e->root,
                           e->bytes, e->bytes_recv, e->request);
         else
            tr_text_record(text, "coll %s %d %d %lld %lld", e->name, e->comm, e->root, e->bytes,
                           e->bytes_recv);
         break;
      case TR_EV_CALL:
         tr_text_record(text, "call %s", e->name);
         break;
      default:
         break;
   }
}

void tr_text_free(TrText* text)
{
   VG_(free)(text->data);
   VG_(memset)(text, 0, sizeof *text);
}

void tr_text_clear(TrText* text)
{
   text->used = 0;
   if (text->data) text->data[0] = 0;
}
