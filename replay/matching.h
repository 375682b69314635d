// matching.h — point-to-point matching: messages and receives meet on their channel
// (trace::Channel: source, destination, tag, communicator, and the threads where the trace names
// them), in FIFO order. A channel holds either messages no receive has matched yet (unexpected
// messages) or receives no message has matched yet, never both. (The engine keeps several
// tables: what a "message" and a "receive" are depends on the table, engine_p2p.cpp.)
//
// Messages and receives are the engine's ids (two separate numberings); the table keeps only
// their order, so a match costs one hash lookup and no allocation once the channel exists. The
// channels are in one flat open-addressing table (a lookup probes a few adjacent slots, with no
// pointer to follow); growing it drops the channels left empty, so traces that use ever new
// tags keep a table as large as what waits.
#pragma once

#include <cstdint>
#include <vector>

#include "tareador/trace.h"

namespace tareador::replay {

class MatchTable {
 public:
  static constexpr std::int32_t kNone = -1;

  // Message `message` is sent on `channel`: returns the oldest receive posted there, which it
  // now matches (out of the table), or kNone when it waits in the table for one.
  std::int32_t send(const trace::Channel& channel, std::uint32_t message);

  // Receive `receive` is posted on `channel`: returns the oldest message waiting there, which it
  // now matches (out of the table), or kNone when it waits in the table for one.
  std::int32_t receive(const trace::Channel& channel, std::uint32_t receive);

  // Whether receives wait on `channel` (they stay in the table).
  bool has_receives(const trace::Channel& channel) const;

  // The oldest message (receive) waiting on `channel`, taken out of the table; kNone if none.
  std::int32_t take_message(const trace::Channel& channel) { return take(channel, false); }
  std::int32_t take_receive(const trace::Channel& channel) { return take(channel, true); }

  // What is still waiting on a channel (for the report of a run that cannot finish).
  struct Pending {
    trace::Channel channel;
    bool receives = false;           // `ids` are receives (else messages)
    std::vector<std::uint32_t> ids;  // oldest first
  };
  std::vector<Pending> pending() const;

 private:
  struct Queue {
    std::int32_t head = kNone, tail = kNone;
    bool receives = false;
  };
  struct Slot {
    trace::Channel channel;
    Queue queue;
    bool used = false;
  };

  Queue& queue(const trace::Channel& channel);
  std::size_t find(const trace::Channel& channel) const;  // its slot; kNoSlot if it has none
  std::int32_t take(const trace::Channel& channel, bool receives);
  std::int32_t pop(Queue& q);       // takes the head of a non-empty queue
  void rebuild(std::size_t slots);  // the non-empty channels only, in `slots` slots
  std::int32_t take_or_append(const trace::Channel& channel, std::uint32_t id, bool receive);
  std::vector<std::int32_t>& links(bool receives) {
    return receives ? next_receive_ : next_message_;
  }

  static constexpr std::size_t kNoSlot = ~std::size_t{0};

  std::vector<Slot> slots_;  // a power of two of them, at most half used
  std::size_t used_ = 0;
  // The next id in its channel's queue, per message and per receive.
  std::vector<std::int32_t> next_message_, next_receive_;
};

}  // namespace tareador::replay
