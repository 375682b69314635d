// comparisons.h — the traces of one input side by side: the names that tell them apart (in
// tables, legends and output files), and which trace each is compared with (its baseline), for
// every command that replays several kinds of a trace set.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tareador/replay.h"
#include "tareador/trace.h"

namespace tareador::replay {

// The names that tell the traces apart in tables, legends and output file names: their kinds
// when these differ (a lone Dimemas file: its file name without extension), else input name
// and kind. Throws trace::FormatError when two traces would get the same name.
std::vector<std::string> trace_labels(const std::vector<const trace::Trace*>& traces);

// What a trace of kind kinds[i] of one input is compared with, as the index in `kinds` of its
// baseline, or -1 for none: the overlap kinds (overlap-real, overlap-ideal,
// overlap-speculative) with authentic-p2p when the input
// has it (the authentic run with its collectives as the same point-to-point transfers, so that
// their speedup is the overlap's alone, not the change of collective model), else with
// authentic; tasks and other kinds with authentic; authentic and authentic-p2p with none.
int baseline_index(const std::vector<std::string>& kinds, std::size_t i);
// Why `kind` is a baseline, for the reports ("authentic-p2p is the authentic run with its
// collectives as the same point-to-point transfers as the overlap kinds: ..."); "" when it
// needs no explaining.
std::string baseline_explanation(const std::string& kind);

// A caution for the overlap kinds' speedups on `machine`, or "" when its network limits the
// transfers between nodes that travel at once (links or buses). Without such a limit each
// transfer gets the whole bandwidth, so the chunks of one message, sent together, arrive as
// many times sooner: a speedup that comes from the model, not from overlap.
std::string overlap_caution(const Machine& machine);

}  // namespace tareador::replay
