#include "comm/mpi_matrix.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace tareador::comm {

namespace {

using trace::Record;
using trace::RecordType;

// The binomial tree over relative ranks 0 .. n-1 (0 the root): the parent of v > 0.
std::size_t tree_parent(std::size_t v) { return v & (v - 1); }

// Transfers of a tree among `parts` rooted at member `root`: towards the root (fan-in, each
// member sends `bytes_of(member)` to its parent) or from it (fan-out, each receives it).
template <typename Bytes>
void tree(Matrix& m, const std::vector<int>& tasks, std::size_t root, bool fan_in, Bytes bytes_of) {
  const std::size_t n = tasks.size();
  for (std::size_t v = 1; v < n; ++v) {
    std::size_t member = (v + root) % n, parent = (tree_parent(v) + root) % n;
    auto from = static_cast<std::size_t>(fan_in ? tasks[member] : tasks[parent]);
    auto to = static_cast<std::size_t>(fan_in ? tasks[parent] : tasks[member]);
    m.add(from, to, bytes_of(member));
  }
}

}  // namespace

void add_collective(Matrix& m, const std::vector<int>& tasks,
                    const std::vector<CollectivePart>& parts) {
  const std::size_t n = tasks.size();
  if (n < 2 || parts.size() != n) return;
  std::size_t root = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (parts[i].root) root = i;
  auto sent = [&](std::size_t i) { return parts[i].sent; };
  auto received = [&](std::size_t i) { return parts[i].received; };
  auto none = [](std::size_t) { return 0.0; };
  auto at = [&](std::size_t i) { return static_cast<std::size_t>(tasks[i]); };
  switch (parts.front().op) {
    case trace::kBarrier:
      tree(m, tasks, 0, true, none);
      tree(m, tasks, 0, false, none);
      return;
    case trace::kBcast:
      tree(m, tasks, root, false, received);
      return;
    case trace::kReduce:
      tree(m, tasks, root, true, sent);
      return;
    case trace::kAllreduce:  // a reduction to member 0, then its broadcast
      tree(m, tasks, 0, true, sent);
      tree(m, tasks, 0, false, received);
      return;
    case trace::kReduceScatter:
    case trace::kReduceScatterBlock:  // the whole vector reduced to member 0, then scattered
      tree(m, tasks, 0, true, sent);
      for (std::size_t i = 1; i < n; ++i) m.add(at(0), at(i), parts[i].received);
      return;
    case trace::kGather:
    case trace::kGatherv:
      for (std::size_t i = 0; i < n; ++i)
        if (i != root) m.add(at(i), at(root), parts[i].sent);
      return;
    case trace::kScatter:
    case trace::kScatterv:
      for (std::size_t i = 0; i < n; ++i)
        if (i != root) m.add(at(root), at(i), parts[i].received);
      return;
    case trace::kAllgather:
    case trace::kAllgatherv:  // each member's block to every other member
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          if (i != j) m.add(at(i), at(j), parts[i].sent);
      return;
    case trace::kAlltoall:
    case trace::kAlltoallv:
    case trace::kAlltoallw:  // the trace keeps each member's total: n equal blocks
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          if (i != j) m.add(at(i), at(j), parts[i].sent / static_cast<double>(n));
      return;
    case trace::kScan:  // a chain: member i passes its prefix to i + 1
      for (std::size_t i = 0; i + 1 < n; ++i) m.add(at(i), at(i + 1), parts[i].sent);
      return;
    default:
      return;
  }
}

void CollectiveGatherer::add(Matrix& m, int task, const Record& record) {
  if (record.flags & trace::kCollectiveWait) return;  // the wait of one counted at its start
  const trace::Communicator* c = header_.communicator(record.comm);
  auto not_member = [&] {
    return std::invalid_argument(
        fmt::format("task {} is not a member of communicator {}", task, record.comm));
  };
  if (c == nullptr) throw not_member();
  auto member = std::find(c->tasks.begin(), c->tasks.end(), task);
  if (member == c->tasks.end()) throw not_member();
  const auto n = c->tasks.size(), me = static_cast<std::size_t>(member - c->tasks.begin());
  Pending& p = pending_[record.comm];
  if (p.parts.empty()) {
    p.parts.resize(n);
    p.next.assign(n, 0);
  }
  p.parts[me].push_back({record.op, record.peer == task, static_cast<double>(record.bytes),
                         static_cast<double>(record.bytes_recv)});
  // The operation this part belongs to is complete when every member has a part past `next`.
  for (;;) {
    std::vector<CollectivePart> parts(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (p.next[i] >= p.parts[i].size()) return;
      parts[i] = p.parts[i][p.next[i]];
      if (parts[i].op != parts.front().op)
        throw std::invalid_argument(fmt::format(
            "collective {} of communicator {}: task {} calls {}, task {} calls {}", p.next[i] + 1,
            record.comm, c->tasks[0], trace::global_op_name(parts.front().op), c->tasks[i],
            trace::global_op_name(parts[i].op)));
    }
    add_collective(m, c->tasks, parts);
    for (std::size_t i = 0; i < n; ++i) {
      ++p.next[i];
      if (p.next[i] == p.parts[i].size()) {  // drop what is decomposed
        p.parts[i].clear();
        p.next[i] = 0;
      }
    }
  }
}

std::uint64_t CollectiveGatherer::incomplete() const {
  std::uint64_t most = 0;
  for (const auto& [comm, p] : pending_)
    for (std::size_t i = 0; i < p.parts.size(); ++i)
      most = std::max<std::uint64_t>(most, p.parts[i].size() - p.next[i]);
  return most;
}

Matrix traced_matrix(const trace::Trace& t) {
  const trace::TraceHeader& h = t.header();
  Matrix m = Matrix::numbered(static_cast<std::size_t>(h.tasks()));
  CollectiveGatherer collectives(h);
  for (int task = 0; task < h.tasks(); ++task)
    for (int thread = 0; thread < h.threads[static_cast<std::size_t>(task)]; ++thread) {
      std::unique_ptr<trace::RecordStream> stream = t.open(task, thread);
      for (Record r; stream->next(r);) {
        if (r.type == RecordType::Send) {
          m.add(static_cast<std::size_t>(task), static_cast<std::size_t>(r.peer),
                static_cast<double>(r.bytes));
        } else if (r.type == RecordType::GlobalOp) {
          try {
            collectives.add(m, task, r);
          } catch (const std::invalid_argument& e) {
            throw trace::FormatError(stream->where(), 0, e.what());
          }
        }
      }
    }
  return m;
}

namespace {

class MatrixSink final : public replay::TimelineSink {
 public:
  MatrixSink(const trace::TraceHeader& header, Matrix& m) : collectives_(header), m_(m) {}

  void state(int, int, double, double, replay::State) override {}
  void event(int, int, double, std::uint64_t, std::uint64_t) override {}
  void message(const replay::Message& message) override {
    m_.add(static_cast<std::size_t>(message.src_task), static_cast<std::size_t>(message.dst_task),
           static_cast<double>(message.bytes));
  }
  void call(int task, int, double, double, const Record& record) override {
    if (record.type == RecordType::GlobalOp) collectives_.add(m_, task, record);
  }
  void finish(double) override {}

 private:
  CollectiveGatherer collectives_;
  Matrix& m_;
};

}  // namespace

std::unique_ptr<replay::TimelineSink> make_matrix_sink(const trace::TraceHeader& header,
                                                       Matrix& m) {
  return std::make_unique<MatrixSink>(header, m);
}

void write_matrix_files(const std::string& prefix, const Matrix& m, const std::string& title) {
  HeatmapOptions options;
  options.title = title;
  double low = 0, high = 0;
  for (double v : m.bytes)
    if (v > 0) {
      low = low > 0 ? std::min(low, v) : v;
      high = std::max(high, v);
    }
  options.log_scale = high > 100 * low;
  for (const char* extension : {".csv", ".svg"}) {
    const std::string path = prefix + extension;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (extension[1] == 'c') write_csv(out, m);
    else write_heatmap_svg(out, m, options);
    out.close();
    if (!out) throw trace::FormatError(path, 0, "cannot write the communication matrix");
  }
}

}  // namespace tareador::comm
