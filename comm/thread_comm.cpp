// Thread communication at block granularity: reading threadcomm.N.txt, matrices and the report.
#include "comm/thread_comm.h"

#include <algorithm>
#include <cstdio>

#include "comm/records.h"
#include "tareador/trace.h"

namespace tareador::comm {

namespace {

std::size_t thread_index(const ThreadComm& c, unsigned tid) {
  return static_cast<std::size_t>(std::lower_bound(c.threads.begin(), c.threads.end(), tid) -
                                  c.threads.begin());
}

bool listed(const ThreadComm& c, unsigned tid) {
  return std::binary_search(c.threads.begin(), c.threads.end(), tid);
}

std::string share(std::uint64_t part, std::uint64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%",
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return text;
}

}  // namespace

ThreadComm read_thread_comm(const std::string& path, int rank) {
  RecordFile file(path, "threadcomm", rank);
  ThreadComm c;
  trace::Fields header = file.fields(file.header("granularity"));
  c.granularity = header.count<unsigned>("granularity");
  if (c.granularity > 16) file.fail("the granularity is past 16 (blocks of 64 KB)");
  file.read_records("thread, pair", [&](std::string_view record, trace::Fields& f) {
    if (record == "thread") {
      unsigned tid = f.count<unsigned>("THREAD");
      if (!c.threads.empty() && tid <= c.threads.back())
        f.fail("threads are listed in ascending order, each once");
      c.threads.push_back(tid);
      c.accesses.push_back(f.count<std::uint64_t>("ACCESSES"));
      f.expect_end("thread");
    } else if (record == "pair") {
      ThreadPair p;
      p.source = f.count<unsigned>("SOURCE");
      p.destination = f.count<unsigned>("DESTINATION");
      for (unsigned tid : {p.source, p.destination})
        if (!listed(c, tid)) f.fail("thread " + std::to_string(tid) + " is not listed");
      p.events = f.count<std::uint64_t>("EVENTS");
      p.true_events = f.count<std::uint64_t>("TRUE");
      p.bytes = f.count<std::uint64_t>("BYTES");
      if (p.true_events > p.events) f.fail("more true events than events");
      f.expect_end("pair");
      c.pairs.push_back(p);
    } else {
      return false;
    }
    return true;
  });
  return c;
}

Matrix thread_matrix(const ThreadComm& c, ThreadEvents which) {
  std::vector<std::string> labels;
  for (unsigned tid : c.threads) labels.push_back("thread " + std::to_string(tid));
  Matrix m(labels);
  for (const ThreadPair& p : c.pairs) {
    std::uint64_t events = which == ThreadEvents::all         ? p.events
                           : which == ThreadEvents::true_only ? p.true_events
                                                              : p.false_events();
    m.add(thread_index(c, p.source), thread_index(c, p.destination),
          which == ThreadEvents::all ? static_cast<double>(p.bytes) : 0,
          static_cast<double>(events));
  }
  return m;
}

void write_thread_report(std::ostream& out, const ThreadComm& c) {
  std::uint64_t events = 0, true_events = 0;
  for (const ThreadPair& p : c.pairs) {
    events += p.events;
    true_events += p.true_events;
  }
  out << "thread communication in blocks of " << (1u << c.granularity)
      << " bytes: " << c.threads.size() << " threads, " << events << " events: " << true_events
      << " true (" << share(true_events, events) << "), " << events - true_events
      << " spatially false (" << share(events - true_events, events) << ")\n\n";
  out << "      events        true       false  source -> destination\n";
  std::vector<ThreadPair> pairs = c.pairs;
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const ThreadPair& a, const ThreadPair& b) { return a.events > b.events; });
  for (const ThreadPair& p : pairs) {
    char row[96];
    std::snprintf(row, sizeof row, "%12llu %11llu %11llu  thread %u -> thread %u\n",
                  static_cast<unsigned long long>(p.events),
                  static_cast<unsigned long long>(p.true_events),
                  static_cast<unsigned long long>(p.false_events()), p.source, p.destination);
    out << row;
  }
}

}  // namespace tareador::comm
