/* tr_program.h — what the traced program is, as opposed to the libraries it uses: its ELF file,
   examined before it runs (does it link an MPI library, was it compiled with debug information),
   and which memory and code are its own (porting hints and allocation sites name the program's
   objects, not a library's). */
#ifndef TR_PROGRAM_H
#define TR_PROGRAM_H

#include "pub_tool_basics.h"

/* Reads the program's file (from pre_clo_init). */
void tr_program_examine(void);
/* The variables of the debug information (asked for before the options, by the tool or by
   --read-var-info=yes) are read for the program alone: no object's as valgrind first reads
   them (called from post_clo_init), then the program's, before it runs. */
void tr_program_defer_variables(void);
void tr_program_read_variables(void);
/* Whether the program's variables were read: then every local variable in memory is known. */
Bool tr_program_variables_read(void);
/* Whether it links an MPI library; whether it holds DWARF debug information. */
Bool tr_program_is_mpi(void);
Bool tr_program_has_debug_info(void);
/* The highest optimisation level its debug information records (GCC's producer strings:
   "-O2"), "" for -O0 or when not recorded (clang records none without -grecord-command-line). */
const HChar* tr_program_optimisation(void);

/* Whether address `a` belongs to the program's own file (code, constants, data, .bss). */
Bool tr_program_owns(Addr a);
/* Whether address `a` belongs to a loaded object (the program or a library), and whether to its
   linker tables (GOT, PLT). */
Bool tr_program_in_object(Addr a);
Bool tr_program_in_linker_tables(Addr a);
/* Whether code address `ip` is the program's own source: in its file, and not compiled from a
   system header (a standard library template instantiated there). */
Bool tr_program_is_user_code(Addr ip);
/* Whether user code `ip` is a system header's code inlined into a function of the program: its
   line is the header's (valgrind reads no inlining information for this tool), the function the
   program's. */
Bool tr_program_is_inlined_library_code(Addr ip);

/* Whether address `a` (code or data) is in a library of the language runtimes (the C library
   and the dynamic linker, libm, libstdc++, libgcc_s, libgfortran, OpenMP's libgomp). */
Bool tr_program_is_runtime_library(Addr a);

#endif
