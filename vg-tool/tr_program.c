/* tr_program.c — the traced program. The ELF file is read with the few structures needed
   (section headers, the dynamic section), laid out as in the ELF-64 specification. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacehl.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "tr_program.h"

typedef struct {
   UChar ident[16];
   UShort type, machine;
   UInt version;
   ULong entry, phoff, shoff;
   UInt flags;
   UShort ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
} ElfHeader;

typedef struct {
   UInt name, type;
   ULong flags, addr, offset, size;
   UInt link, info;
   ULong addralign, entsize;
} ElfSection;

typedef struct {
   Long tag;
   ULong value;
} ElfDynamic;

#define SECTION_DYNAMIC 6
#define SECTION_COMPRESSED 0x800 /* SHF_COMPRESSED */
#define DYNAMIC_NEEDED 1
#define MAX_SECTIONS 4096
#define MAX_TABLE (64 << 20) /* bytes of a string table or dynamic section read at most */

static struct {
   Bool known;          /* the file was found and is ELF-64 */
   ULong dev, ino;      /* its identity, to recognise its mappings */
   Bool mpi, debug_info;
   HChar optimised[8];  /* the highest -O level a compilation unit names ("-O2"), or "" */
} program;

/* Reads exactly `size` bytes at `offset` of `fd`. */
static Bool read_exactly(Int fd, ULong offset, void* data, ULong size)
{
   return VG_(lseek)(fd, (Off64T)offset, VKI_SEEK_SET) == (Off64T)offset &&
          VG_(read)(fd, data, (Int)size) == (Int)size;
}

/* `size` bytes at `offset` of `fd` (NUL-terminated), or NULL. */
static void* read_at(Int fd, ULong offset, ULong size)
{
   void* data;
   if (size == 0 || size > MAX_TABLE) return NULL;
   data = VG_(malloc)("tareador.elf", size + 1);
   if (!read_exactly(fd, offset, data, size)) {
      VG_(free)(data);
      return NULL;
   }
   ((HChar*)data)[size] = 0;
   return data;
}

/* Whether a library name (a DT_NEEDED entry) is an MPI library: Open MPI's libmpi*, MPICH's
   libmpich* and libmpifort. */
static Bool is_mpi_library(const HChar* name)
{
   return VG_(strncmp)(name, "libmpi", 6) == 0;
}

/* The dynamic section `dynamic` and its string table: does the program link MPI? */
static void read_needed(Int fd, const ElfSection* dynamic, const ElfSection* strings)
{
   ElfDynamic* entries = read_at(fd, dynamic->offset, dynamic->size);
   HChar* names = read_at(fd, strings->offset, strings->size);
   ULong i, n = dynamic->size / sizeof(ElfDynamic);
   for (i = 0; entries && names && i < n; i++)
      if (entries[i].tag == DYNAMIC_NEEDED && entries[i].value < strings->size &&
          is_mpi_library(names + entries[i].value))
         program.mpi = True;
   VG_(free)(entries);
   VG_(free)(names);
}

/* The optimisation level of a producer string of the debug information, as GCC records its
   options ("GNU C17 12.2.0 -mtune=generic -g -O2"): the last -O option, "" for none or -O0. */
static void producer_level(const HChar* producer, HChar level[8])
{
   const HChar* p;
   level[0] = 0;
   for (p = VG_(strstr)(producer, " -O"); p; p = VG_(strstr)(p + 3, " -O")) {
      Int n = 0;
      while (n < 5 && p[3 + n] != 0 && p[3 + n] != ' ') n++;
      VG_(strcpy)(level, "-O");
      VG_(strncat)(level, p + 3, n);
   }
   if (VG_(strcmp)(level, "-O0") == 0) level[0] = 0;
}

/* The string section of the debug information holds each compilation unit's producer: keeps
   the highest optimisation level (-O1 < -O2 < -O3 by their digit; -Os, -Og and -Ofast count as
   optimised). */
static void read_producers(Int fd, const ElfSection* strings)
{
   HChar* text;
   ULong i;
   if (strings->flags & SECTION_COMPRESSED) return;
   text = read_at(fd, strings->offset, strings->size);
   for (i = 0; text && i < strings->size; i += VG_(strlen)(text + i) + 1) {
      HChar level[8];
      if (VG_(strncmp)(text + i, "GNU ", 4) != 0) continue;
      producer_level(text + i, level);
      if (level[0] && (program.optimised[0] == 0 ||
                       VG_(strcmp)(level, program.optimised) > 0))
         VG_(strcpy)(program.optimised, level);
   }
   VG_(free)(text);
}

static void read_sections(Int fd)
{
   ElfHeader header;
   ElfSection* sections;
   HChar* names;
   UInt i;
   if (!read_exactly(fd, 0, &header, sizeof header) ||
       VG_(memcmp)(header.ident, "\177ELF", 4) != 0 || header.ident[4] != 2 /* 64-bit */ ||
       header.shentsize != sizeof(ElfSection) || header.shnum == 0 ||
       header.shnum > MAX_SECTIONS || header.shstrndx >= header.shnum)
      return;
   sections = read_at(fd, header.shoff, (ULong)header.shnum * sizeof(ElfSection));
   if (sections == NULL) return;
   names = read_at(fd, sections[header.shstrndx].offset, sections[header.shstrndx].size);
   program.known = names != NULL;
   for (i = 0; names && i < header.shnum; i++) {
      const HChar* name =
         sections[i].name < sections[header.shstrndx].size ? names + sections[i].name : "";
      if (VG_(strcmp)(name, ".debug_info") == 0) program.debug_info = True;
      if (VG_(strcmp)(name, ".debug_str") == 0) read_producers(fd, &sections[i]);
      if (sections[i].type == SECTION_DYNAMIC && sections[i].link < header.shnum)
         read_needed(fd, &sections[i], &sections[sections[i].link]);
   }
   VG_(free)(names);
   VG_(free)(sections);
}

void tr_program_examine(void)
{
   struct vg_stat st;
   SysRes opened;
   const HChar* path = VG_(args_the_exename);
   if (path == NULL || sr_isError(VG_(stat)(path, &st))) return;
   program.dev = st.dev;
   program.ino = st.ino;
   opened = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(opened)) return;
   read_sections((Int)sr_Res(opened));
   VG_(close)((Int)sr_Res(opened));
}

/* Valgrind's flag for reading the variables of the debug information, and how it reads an
   object's debug information: none is in the tool interface (a tool asks for the variables with
   VG_(needs_var_info), for every object loaded). The tool wants them for the program alone:
   valgrind reads the program and the dynamic linker before anything of the tool runs but
   post_clo_init, and the dynamic linker's variables (libc6-dbg, which valgrind finds by itself)
   take a fifth of a second to read at every start; the C library's, seconds, and they hold
   location expressions valgrind cannot evaluate, which it reports at every lookup of a stack
   address. So no object's variables are read at first, and the program's debug information
   is read again, with them, before it runs: its mappings are still those valgrind read it
   from (the dynamic linker has not made its relocated data read-only yet). */
extern Bool VG_(clo_read_var_info);
extern ULong VG_(di_notify_mmap)(Addr a, Bool allow_SkFileV, Int use_fd);
extern void VG_(di_notify_munmap)(Addr a, SizeT len);

static Bool variables_wanted;

void tr_program_defer_variables(void)
{
   variables_wanted = VG_(clo_read_var_info);
   VG_(clo_read_var_info) = False;
}

/* Whether `segment` maps the program's file. */
static Bool maps_program(NSegment const* segment)
{
   return segment && segment->kind == SkFileC && segment->dev == program.dev &&
          segment->ino == program.ino;
}

void tr_program_read_variables(void)
{
   static Bool done;
   Addr* starts;
   Int n, i;
   if (done || !variables_wanted || !program.known) return;
   done = True;
   starts = VG_(get_segment_starts)(SkFileC, &n);
   for (i = 0; i < n; i++) {
      NSegment const* segment = VG_(am_find_nsegment)(starts[i]);
      if (maps_program(segment) && segment->hasX)
         VG_(di_notify_munmap)(segment->start, segment->end + 1 - segment->start);
   }
   VG_(clo_read_var_info) = True;
   for (i = 0; i < n; i++)
      if (maps_program(VG_(am_find_nsegment)(starts[i]))) VG_(di_notify_mmap)(starts[i], False, -1);
   VG_(clo_read_var_info) = False;
   VG_(free)(starts);
}

Bool tr_program_variables_read(void) { return variables_wanted; }

Bool tr_program_is_mpi(void) { return program.mpi; }
Bool tr_program_has_debug_info(void) { return program.known && program.debug_info; }
const HChar* tr_program_optimisation(void) { return program.optimised; }

/* Whether the file at `path` is the program's (the last few answers kept: a file is asked
   about once per object met in it). */
static Bool is_program_file(const HChar* path)
{
   static struct {
      const HChar* path;
      Bool program;
   } seen[8];
   static UInt next;
   struct vg_stat st;
   UInt i;
   for (i = 0; i < 8; i++)
      if (seen[i].path == path) return seen[i].program;
   i = next++ % 8;
   seen[i].path = path;
   seen[i].program = !sr_isError(VG_(stat)(path, &st)) && st.dev == program.dev &&
                     st.ino == program.ino;
   return seen[i].program;
}

Bool tr_program_owns(Addr a)
{
   NSegment const* segment = VG_(am_find_nsegment)(a);
   const HChar* object = NULL;
   if (!program.known) return False;
   if (segment && segment->kind == SkFileC)
      return segment->dev == program.dev && segment->ino == program.ino;
   /* Anonymous memory: a loaded object's .bss, or no object's. */
   return VG_(DebugInfo_sect_kind)(&object, a) != Vg_SectUnknown && object &&
          is_program_file(object);
}

Bool tr_program_in_object(Addr a)
{
   NSegment const* segment = VG_(am_find_nsegment)(a);
   return (segment && segment->kind == SkFileC) ||
          VG_(DebugInfo_sect_kind)(NULL, a) != Vg_SectUnknown;
}

Bool tr_program_in_linker_tables(Addr a)
{
   VgSectKind section = VG_(DebugInfo_sect_kind)(NULL, a);
   return section == Vg_SectGOT || section == Vg_SectGOTPLT || section == Vg_SectPLT ||
          section == Vg_SectOPD;
}

/* Whether a source file was compiled from a system directory (a header of the standard
   library, say): its directory, or the file's own path, is under /usr/. */
static Bool is_system_source(const HChar* file, const HChar* dir)
{
   return VG_(strncmp)(file, "/usr/", 5) == 0 || (dir && VG_(strncmp)(dir, "/usr/", 5) == 0);
}

/* The entry of the function (symbol) holding code address `ip`, or 0 if it is not known. */
static Addr function_entry(Addr ip)
{
   const HChar* name;
   const HChar* plus;
   HChar* end;
   Long offset;
   if (!VG_(get_fnname_w_offset)(VG_(current_DiEpoch)(), ip, &name)) return 0;
   plus = VG_(strrchr)(name, '+');
   if (plus == NULL) return ip;
   offset = VG_(strtoll10)(plus + 1, &end);
   return *end == 0 && offset >= 0 ? ip - (Addr)offset : 0;
}

/* Whether code address `ip` has a source line, in a system header (`system`) or not. */
static Bool has_line(Addr ip, Bool system)
{
   const HChar* file = NULL;
   const HChar* dir = NULL;
   UInt line;
   return VG_(get_filename_linenum)(VG_(current_DiEpoch)(), ip, &file, &dir, &line) &&
          is_system_source(file, dir) == system;
}

/* Whether `ip`, a system header's line, is code inlined into a function of the program
   (std::vector's allocation in main, at -O2): that function's entry is in the program's source. */
static Bool inlined_into_program(Addr ip)
{
   Addr entry = function_entry(ip);
   return entry != 0 && entry != ip && has_line(entry, False);
}

Bool tr_program_is_user_code(Addr ip)
{
   return tr_program_owns(ip) && (!has_line(ip, True) || inlined_into_program(ip));
}

Bool tr_program_is_inlined_library_code(Addr ip)
{
   return tr_program_owns(ip) && has_line(ip, True) && inlined_into_program(ip);
}

Bool tr_program_is_runtime_library(Addr a)
{
   static const HChar* const kRuntimes[] = {"libc.so",     "ld-linux",       "libm.so",
                                            "libstdc++.so", "libgcc_s.so",    "libgfortran.so",
                                            "libpthread.so", "libgomp.so"};
   const HChar* file = NULL;
   const HChar* base;
   UInt i;
   if (VG_(DebugInfo_sect_kind)(&file, a) == Vg_SectUnknown &&
       !VG_(get_objname)(VG_(current_DiEpoch)(), a, &file))
      return False;
   if (file == NULL) return False;
   base = VG_(basename)(file);
   for (i = 0; i < sizeof kRuntimes / sizeof kRuntimes[0]; i++)
      if (VG_(strncmp)(base, kRuntimes[i], VG_(strlen)(kRuntimes[i])) == 0) return True;
   return False;
}
