/* tr_client.c — strings from the traced program's memory. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_vki.h"

#include "tr_client.h"

static const HChar kReplacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* The length of the UTF-8 character at `s` (at most `left` bytes), 0 if the bytes there are not
   one (stray continuation bytes, overlong forms, surrogates, past U+10FFFF, cut short). */
static SizeT utf8_char(const UChar* s, SizeT left)
{
   UInt c = s[0], n, i, code;
   if (c < 0x80) return 1;
   if (c >= 0xC2 && c <= 0xDF) n = 2;
   else if (c >= 0xE0 && c <= 0xEF) n = 3;
   else if (c >= 0xF0 && c <= 0xF4) n = 4;
   else return 0;
   if (n > left) return 0;
   code = c & (0x7F >> n);
   for (i = 1; i < n; i++) {
      if ((s[i] & 0xC0) != 0x80) return 0;
      code = (code << 6) | (s[i] & 0x3F);
   }
   if ((n == 3 && code < 0x800) || (n == 4 && code < 0x10000) || code > 0x10FFFF ||
       (code >= 0xD800 && code <= 0xDFFF))
      return 0;
   return n;
}

UInt tr_utf8_copy(const HChar* s, HChar* out, SizeT size)
{
   SizeT n = VG_(strlen)(s), at = 0, used = 0, k;
   UInt problems = 0;
   while (at < n) {
      k = utf8_char((const UChar*)s + at, n - at);
      if (k == 0) problems |= TR_NAME_NOT_UTF8;
      if (used + (k ? k : 3) + 1 > size) {
         problems |= TR_NAME_CUT;
         break;
      }
      VG_(memcpy)(out + used, k ? s + at : kReplacement, k ? k : 3);
      used += k ? k : 3;
      at += k ? k : 1;
   }
   out[used] = 0;
   return problems;
}

/* Whether the client can read the byte at `a`, page by page (cached for the page last asked). */
static Bool readable(Addr a, Addr* page_ok)
{
   Addr page = a & ~(Addr)(VKI_PAGE_SIZE - 1);
   if (page == *page_ok) return True;
   if (!VG_(am_is_valid_for_client)(page, VKI_PAGE_SIZE, VKI_PROT_READ)) return False;
   *page_ok = page;
   return True;
}

UInt tr_client_name(Addr a, HChar name[TR_NAME_MAX + 1])
{
   HChar raw[2 * TR_NAME_MAX + 1];
   Addr page_ok = 1;  /* no page: pages are aligned */
   SizeT n = 0;
   UInt problems = 0;
   name[0] = 0;
   if (a == 0) return TR_NAME_NULL;
   /* Past the limit too: replacing bytes that are not UTF-8 may make the name longer. */
   while (n < sizeof raw - 1) {
      if (!readable(a + n, &page_ok)) {
         if (n == 0) return TR_NAME_UNREADABLE;
         problems |= TR_NAME_UNREADABLE;
         break;
      }
      raw[n] = *(const HChar*)(a + n);
      if (raw[n] == 0) break;
      n++;
   }
   if (n == sizeof raw - 1) problems |= TR_NAME_CUT;
   raw[n] = 0;
   return problems | tr_utf8_copy(raw, name, TR_NAME_MAX + 1);
}
