// thread_comm.h — the communication between threads the tool records with --thread-comm=yes
// (threadcomm.N.txt of a trace set, docs/trace-format.md): the relaxed definition of
// "Communication Detection in Shared Memory" (Algorithm 1), memory in blocks of 2^G bytes, each
// remembering the two threads that touched it last. Per pair (source: the thread remembered,
// destination: the thread accessing) the events, those that are true (the same bytes were
// touched by both) and the spatially false rest (only the block is shared), and their bytes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "comm/matrix.h"

namespace tareador::comm {

struct ThreadPair {
  unsigned source = 0, destination = 0;  // threads by creation number (1: the main thread)
  std::uint64_t events = 0, true_events = 0, bytes = 0;
  std::uint64_t false_events() const { return events - true_events; }
};

struct ThreadComm {
  unsigned granularity = 6;             // blocks of 2^granularity bytes
  std::vector<unsigned> threads;        // every thread that accessed memory, ascending
  std::vector<std::uint64_t> accesses;  // its loads and stores, in that order
  std::vector<ThreadPair> pairs;        // by (source, destination)
};

// Reads threadcomm.N.txt of `rank`; throws trace::FormatError (path:line) when malformed (as
// read_flow_graph, and: a pair naming a thread not listed, more true events than events).
ThreadComm read_thread_comm(const std::string& path, int rank);

// Which events a matrix counts.
enum class ThreadEvents { all, true_only, false_only };
// The matrix, labelled "thread N" in thread order: `events` the events of the kind chosen,
// `bytes` the bytes of their accesses (all of them for `all`; 0 otherwise: the file gives the
// bytes of all events only).
Matrix thread_matrix(const ThreadComm& c, ThreadEvents which = ThreadEvents::all);

// The totals (events, true, spatially false) and the pairs, most events first.
void write_thread_report(std::ostream& out, const ThreadComm& c);

}  // namespace tareador::comm
