// engine_end.cpp — the end of a run: its summary, or the report of why it cannot finish (what
// each thread waits for, what no one matched), or what a truncated trace left undone.
#include <algorithm>
#include <sstream>
#include <string>

#include "replay/engine.h"

namespace tareador::replay {

using trace::Record;
using trace::RecordType;

namespace {

std::string endpoint(int task, int thread) {
  return "rank " + std::to_string(task) +
         (thread >= 0 ? " thread " + std::to_string(thread) : std::string());
}

// The lines of a report of what could not complete, indented: at most 30, then how many more.
std::vector<std::string> listed(const std::vector<std::string>& problems) {
  constexpr std::size_t kMaxLines = 30;
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < problems.size() && i < kMaxLines; ++i)
    lines.push_back("  " + problems[i]);
  if (problems.size() > kMaxLines)
    lines.push_back("  ... and " + std::to_string(problems.size() - kMaxLines) + " more");
  return lines;
}

}  // namespace

std::string describe(const trace::Record& r) {
  std::ostringstream out;
  switch (r.type) {
    case RecordType::Burst:
      out << "CPU burst";
      break;
    case RecordType::Send:
      out << (r.immediate() ? "immediate " : "")
          << ((r.flags & trace::kRendezvous) ? "rendezvous " : "") << "send of " << r.bytes
          << " bytes to rank " << r.peer << " (tag " << r.tag << ", comm " << r.comm << ")";
      break;
    case RecordType::Recv:
      out << (r.immediate() ? "immediate " : "") << "receive of " << r.bytes << " bytes from rank "
          << r.peer << " (tag " << r.tag << ", comm " << r.comm << ")";
      break;
    case RecordType::Wait:
      out << "wait";
      break;
    case RecordType::GlobalOp:
      out << trace::global_op_name(r.op) << " on comm " << r.comm;
      break;
    case RecordType::Event:
      out << "event";
      break;
    case RecordType::Call:
      out << "opaque call";
      break;
    case RecordType::Spawn:
      out << "spawn of instance " << r.peer;
      break;
    case RecordType::After:
      out << "after instance " << r.peer;
      break;
  }
  return out.str();
}

// Whether thread `t`, blocked at `record`, waits for a transfer of a collective broken into
// point-to-point transfers (their tags are negative, which no MPI tag is, and above those of
// neighbourhood collectives, which are transfers anyway: docs/tool.md).
bool Engine::waits_for_collective_transfer(const ThreadSim& t, const trace::Record& record) const {
  auto broken_up = [](std::int64_t tag) { return tag < 0 && tag > trace::kNeighbourhoodTag; };
  if (t.waiting == Waiting::Request)
    return broken_up(requests_[static_cast<std::uint32_t>(t.blocked_on)].channel.tag);
  return t.waiting == Waiting::SendStart && broken_up(record.tag);
}

void Engine::check_finished() {
  std::vector<std::string> problems;
  bool collective_transfers = false;  // a thread waits for one
  for (const ThreadSim& t : threads_) {
    if (t.phase == Phase::Done) continue;
    if (task_mode_) {
      problems.push_back(task_problem(t));
      continue;
    }
    std::string who = "rank " + std::to_string(t.task) +
                      (header_.threads[static_cast<std::size_t>(t.task)] > 1
                           ? " thread " + std::to_string(t.thread)
                           : "");
    const Record& record = run_of(t).record;
    collective_transfers = collective_transfers || waits_for_collective_transfer(t, record);
    problems.push_back(who + " is blocked at " + where(t) + " in " + describe(record) + ": " +
                       blocked_reason(t, record));
  }
  for (auto& [key, cid] : open_collectives_) {
    CollectiveSim& c = collectives_[cid];
    problems.push_back(std::string(trace::global_op_name(c.op)) + " #" +
                       std::to_string(c.sequence) + " on comm " + std::to_string(c.comm) +
                       " never completed: " + membership(c));
  }
  std::vector<std::string> channels = unmatched();
  if (problems.empty() && !channels.empty()) {
    // Every thread ended: messages or posted receives that nothing waits for are left over, as
    // when a program never waits for a receive it posted (Dimemas ends such a run too).
    end_notes_.push_back("the run ends with " + std::to_string(channels.size()) +
                         " channel(s) left unmatched, which nothing waited for:");
    for (const std::string& line : listed(channels)) end_notes_.push_back(line);
    return;
  }
  problems.insert(problems.end(), channels.begin(), channels.end());
  if (problems.empty()) return;
  std::sort(problems.begin(), problems.end());
  if (!header_.truncated_tasks.empty()) return end_truncated(problems);
  std::string report = "deadlock: the simulated run cannot finish (" +
                       std::to_string(problems.size()) + " problem(s))";
  for (const std::string& line : listed(problems)) report += "\n" + line;
  for (const std::string& note : header_.notes) report += "\n  note: " + note;
  if (collective_transfers)
    report +=
        "\n  hint: a thread waits for a transfer of a collective (a negative tag): the trace "
        "breaks collectives into point-to-point transfers (tareador's overlap kinds and "
        "authentic-p2p do, a non-blocking one at its wait), so a rank that receives, before its "
        "wait, what another sends only after its own wait (a program that polls MPI_Test while "
        "messages flow may) deadlocks here, not in the authentic kind; tracing with "
        "--collectives=keep keeps collectives whole, a non-blocking one started at its call "
        "(docs/tool.md)";
  throw DeadlockError(report);
}

// What waits on a channel for its other half: receives no send matched, sends no receive
// matched (with the file:line of the first).
std::vector<std::string> Engine::unmatched() const {
  std::vector<std::string> problems;
  for (const MatchTable::Pending& p : reached_.pending()) {
    const trace::Channel& key = p.channel;
    std::string what =
        "(tag " + std::to_string(key.tag) + ", comm " + std::to_string(key.comm) + ")";
    std::string src = endpoint(key.src_task, key.src_thread);
    std::string dst = endpoint(key.dst_task, key.dst_thread);
    std::string count = std::to_string(p.ids.size());
    if (p.receives) {
      problems.push_back(dst + " posted " + count + " receive(s) from " + src + " " + what +
                         " that no send matched");
      continue;
    }
    const ReachedSim& send = reached_sims_[p.ids.front()];
    problems.push_back(src + " sent " + count + " message(s) to " + dst + " " + what +
                       " that no receive matched (the first at " +
                       where(threads_[send.sender], send.send_mark) + ")");
  }
  return problems;
}

// A trace that stops early (its run died) cannot finish: what was traced is simulated, the
// threads left waiting end when the simulation runs out of events, and the notes say what
// never completed because of the truncation.
void Engine::end_truncated(const std::vector<std::string>& problems) {
  for (ThreadSim& t : threads_) {
    if (t.phase == Phase::Done) continue;
    close_state(t);
    t.state = State::Idle;
    t.end = now_;
    t.phase = Phase::Done;
  }
  std::string ranks;
  for (int task : header_.truncated_tasks)
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(task);
  end_notes_.push_back("the trace stops early (truncated: rank(s) " + ranks +
                       "): the simulation ends at " + std::to_string(now_) + " s, with " +
                       std::to_string(problems.size()) +
                       " thing(s) that could not complete because of it");
  for (const std::string& line : listed(problems)) end_notes_.push_back(line);
}

// Why `t` is blocked at `record`, the record it is at.
std::string Engine::blocked_reason(const ThreadSim& t, const trace::Record& record) const {
  switch (t.waiting) {
    case Waiting::Request: {  // (only receives block)
      const RequestSim& r = requests_[static_cast<std::uint32_t>(t.blocked_on)];
      return "waiting for a message from rank " + std::to_string(r.channel.src_task) + " (tag " +
             std::to_string(r.channel.tag) + ", comm " + std::to_string(r.channel.comm) + ")";
    }
    case Waiting::SendStart:
      return "waiting for rank " + std::to_string(record.peer) +
             " to post the receive of its rendezvous send";
    case Waiting::Collective:
      return "waiting for the collective's members: " +
             membership(collectives_[static_cast<std::uint32_t>(t.blocked_on)]);
    case Waiting::Core:
      return "waiting for a core";
    case Waiting::Dependency: {
      const ThreadSim& source = threads_[static_cast<std::uint32_t>(t.blocked_on)];
      return "waiting for instance " + std::to_string(source.thread + 1) + " (" +
             type_name(source) + ") to end";
    }
    case Waiting::Posting:
      return "waiting for request " + std::to_string(record.request) +
             ", which no instance has posted yet";
    case Waiting::Nothing:
      break;
  }
  return "not finished";
}

std::string Engine::membership(const CollectiveSim& c) const {
  const trace::Communicator* comm = header_.communicator(c.comm);
  std::vector<bool> arrived(static_cast<std::size_t>(header_.tasks()), false);
  for (std::uint32_t m : c.members) arrived[static_cast<std::size_t>(threads_[m].task)] = true;
  std::string missing;
  for (int task : comm->tasks)
    if (!arrived[static_cast<std::size_t>(task)])
      missing += (missing.empty() ? "" : ", ") + std::to_string(task);
  return std::to_string(c.members.size()) + " of " + std::to_string(comm->tasks.size()) +
         " arrived; missing rank(s) " + missing;
}

Result Engine::summarize() {
  Result result;
  result.name = header_.name;
  result.kind = header_.kind;
  result.path = header_.path;
  result.notes = header_.notes;
  result.notes.insert(result.notes.end(), machine_.notes.begin(), machine_.notes.end());
  result.notes.insert(result.notes.end(), end_notes_.begin(), end_notes_.end());
  for (const ThreadSim& t : threads_) {
    RankSummary& rank = ranks_[static_cast<std::size_t>(t.task)];
    rank.end = std::max(rank.end, t.end);
    result.total_time = std::max(result.total_time, t.end);
  }
  for (const RankSummary& rank : ranks_) result.records += rank.records;
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    RankSummary& rank = ranks_[r];
    // Task mode: in core-seconds of the rank's node.
    double capacity =
        task_mode_ ? result.total_time *
                         task_cores_[static_cast<std::size_t>(node_of(static_cast<int>(r)))].cores()
                   : result.total_time;
    rank.idle = std::max(0.0, capacity - rank.compute - rank.communication - rank.waiting);
  }
  if (task_mode_) result.tasks = task_result();
  result.ranks = ranks_;
  result.messages = message_count_;
  result.collectives = collective_count_;
  if (sink_) sink_->finish(result.total_time);
  if (options_.progress) options_.progress(1.0);
  return result;
}

}  // namespace tareador::replay
