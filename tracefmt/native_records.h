// native_records.h — the record lines shared by every kind of a native trace set (`cpu`, the
// MPI records, `event`, `call`, `end`; docs/trace-format.md), parsed into Records (internal to
// tracefmt). The stream readers of the authentic kinds and the loader of the tasks kind use it.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tareador/trace.h"
#include "tracefmt/fields.h"
#include "tracefmt/line_reader.h"

namespace tareador::trace {

// The opaque call names of a header (TraceHeader::call_names), by name: the index a `call`
// record stands for. It points into the header, which must outlive it.
using CallIndex = std::unordered_map<std::string_view, std::uint64_t>;
inline CallIndex call_index(const TraceHeader& header) {
  CallIndex index;
  for (std::size_t i = 0; i < header.call_names.size(); ++i)
    index.emplace(header.call_names[i], static_cast<std::uint64_t>(i));
  return index;
}

class NativeRecordParser {
 public:
  // `track_requests`: check that request ids are outstanding (posted before, not yet waited
  // for) in line order. The tasks kind checks its requests itself: its sections are in the
  // order instances ended, not the order they ran.
  NativeRecordParser(const TraceHeader& header, const CallIndex& calls, int rank,
                     bool track_requests = true)
      : header_(header), calls_(calls), rank_(rank), track_requests_(track_requests) {}

  // The joined waits of the last `wait` line, one per call; false when none is left.
  bool pending(Record& out) {
    if (pending_waits_.empty()) return false;
    out = make_wait(pending_waits_.back(), true);
    pending_waits_.pop_back();
    return true;
  }

  bool ended() const { return ended_; }

  // Parses one record line (not a comment) that `lines` returned last into `out`; false for
  // the `end` line. Throws FormatError at that line.
  bool parse(std::string_view line, const LineReader& lines, Record& out) {
    Fields f(line, ' ', lines);
    std::string_view op = f.text("record");
    out = Record{};
    if (op == "cpu") {
      out.type = RecordType::Burst;
      out.flags = kInstructions;
      out.amount = static_cast<double>(f.integer<std::uint64_t>("instructions"));
    } else if (op == "send" || op == "isend") {
      point_to_point(f, RecordType::Send, "destination", out);
      out.flags = send_mode(f, f.text("mode"));
      if (op == "isend") {
        out.flags |= kImmediate;
        out.request = new_request(f, true);
      }
      if (!f.done()) out.lines = cache_lines(f, out.bytes);
    } else if (op == "recv" || op == "irecv") {
      point_to_point(f, RecordType::Recv, "source", out);
      if (op == "irecv") {
        out.flags = kImmediate;
        out.request = new_request(f, false);
      }
    } else if (op == "wait") {
      std::vector<std::uint64_t> requests;
      do {
        auto request = f.integer<std::uint64_t>("request");
        if (track_requests_ && outstanding_.erase(request) == 0)
          f.fail("wait for request " + std::to_string(request) + ", which is not outstanding");
        if (!track_requests_ && request == 0) f.fail("request ids start at 1");
        requests.push_back(request);
      } while (!f.done());
      // The first request is returned now, the others (joined to it) by the next calls.
      pending_waits_.assign(requests.rbegin(), requests.rend() - 1);
      out = make_wait(requests.front(), false);
      return true;
    } else if (op == "coll" || op == "icoll") {
      out.type = RecordType::GlobalOp;
      std::string_view name = f.text("operation");
      out.op = global_op_from_name(name);
      if (out.op < 0) f.fail("unknown collective " + excerpt(name));
      out.comm = f.integer<std::int32_t>("comm");
      check_comm(f, out.comm);
      int root = f.integer<std::int32_t>("root");
      if (root != -1) check_peer(f, root, "root");
      out.peer = root == rank_ ? rank_ : -1;
      out.bytes = f.count<std::int64_t>("send bytes");
      out.bytes_recv = f.count<std::int64_t>("receive bytes");
      if (op == "icoll") {
        out.flags = kImmediate;
        out.request = new_request(f, false);
      }
    } else if (op == "event") {
      out.type = RecordType::Event;
      out.event_type = f.integer<std::uint64_t>("type");
      out.event_value = f.integer<std::uint64_t>("value");
    } else if (op == "call") {
      out.type = RecordType::Call;
      std::string_view name = f.text("name");
      auto it = calls_.find(name);
      if (it == calls_.end())
        f.fail("opaque call " + excerpt(name) + " is not listed in the rank manifest");
      out.event_value = it->second;
    } else if (op == "end") {
      f.expect_end("end");
      ended_ = true;
      return false;
    } else {
      f.fail("unknown record " + excerpt(op));
    }
    f.expect_end(std::string(op).c_str());
    return true;
  }

  static Record make_wait(std::uint64_t request, bool joined) {
    Record r;
    r.type = RecordType::Wait;
    r.request = request;
    r.flags = joined ? kJoinedWait : 0;
    return r;
  }

 private:
  static std::uint8_t send_mode(Fields& f, std::string_view mode) {
    if (mode == "eager") return 0;
    if (mode == "rdv") return kRendezvous;
    if (mode == "sync") return kRendezvous | kProtocolFixed;
    if (mode == "buf") return kProtocolFixed;
    f.fail("unknown send mode " + excerpt(mode) + " (eager, rdv, sync or buf)");
  }

  // `lines=U` of a send: U unique cache lines hold its `bytes` (at least one byte each, and
  // at least the lines of `bytes` contiguous bytes).
  static std::int32_t cache_lines(Fields& f, std::int64_t bytes) {
    std::string_view field = f.text("lines");
    std::int64_t u = -1;
    constexpr std::string_view kKey = "lines=";
    if (field.substr(0, kKey.size()) == kKey) {
      std::string_view digits = field.substr(kKey.size());
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), u);
      if (ec != std::errc() || end != digits.data() + digits.size()) u = -1;
    }
    if (u < 0) f.fail("expected lines=U (unique cache lines), not " + excerpt(field));
    std::int64_t fewest = (bytes + kTraceLineBytes - 1) / kTraceLineBytes;
    if (u < fewest || u > bytes)
      f.fail("lines=" + std::to_string(u) + " for " + std::to_string(bytes) + " bytes: between " +
             std::to_string(fewest) + " and " + std::to_string(bytes));
    if (u > INT32_MAX) f.fail("lines=" + std::to_string(u) + ": at most 2^31 - 1");
    return static_cast<std::int32_t>(u);
  }

  void check_peer(Fields& f, int task, const char* what) const {
    if (task < 0 || task >= header_.tasks())
      f.fail(std::string(what) + " " + std::to_string(task) + " is not a rank of the set (0.." +
             std::to_string(header_.tasks() - 1) + ")");
  }

  void check_comm(Fields& f, int comm) const {
    if (header_.communicator(comm) == nullptr)
      f.fail("unknown communicator " + std::to_string(comm));
  }

  // A request id; 0 is allowed for immediate sends that are never waited for.
  std::uint64_t new_request(Fields& f, bool zero_allowed) {
    auto request = f.integer<std::uint64_t>("request");
    if (request == 0) {
      if (zero_allowed) return 0;
      f.fail("request ids start at 1");
    }
    if (track_requests_ && !outstanding_.insert(request).second)
      f.fail("request " + std::to_string(request) + " is already outstanding");
    return request;
  }

  // send/isend/recv/irecv: PEER TAG COMM BYTES.
  void point_to_point(Fields& f, RecordType type, const char* peer, Record& out) const {
    out.type = type;
    out.peer = f.integer<std::int32_t>(peer);
    check_peer(f, out.peer, peer);
    out.tag = f.integer<std::int64_t>("tag");
    out.comm = f.integer<std::int32_t>("comm");
    check_comm(f, out.comm);
    out.bytes = f.count<std::int64_t>("bytes");
  }

  const TraceHeader& header_;
  const CallIndex& calls_;
  int rank_;
  bool track_requests_;
  std::unordered_set<std::uint64_t> outstanding_;
  std::vector<std::uint64_t> pending_waits_;  // joined waits still to return, last first
  bool ended_ = false;
};

// The `tasks` kind of a trace set (tasks.cpp): loads every rank's stream (one path per rank)
// and checks it; `header` is the set's, with kind "tasks". Without `uses`, the instances'
// uses are checked but not kept (OpenOptions::task_uses).
std::unique_ptr<Trace> open_tasks_trace(TraceHeader header,
                                        const std::vector<std::string>& stream_paths,
                                        const std::vector<bool>& truncated, bool uses = true);

}  // namespace tareador::trace
