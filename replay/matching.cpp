#include "replay/matching.h"

namespace tareador::replay {

namespace {

constexpr trace::ChannelHash channel_hash{};

constexpr std::size_t kMinSlots = 64;

}  // namespace

// The queue of `channel`, made empty if it has none.
MatchTable::Queue& MatchTable::queue(const trace::Channel& channel) {
  if (slots_.empty()) rebuild(kMinSlots);
  std::size_t mask = slots_.size() - 1;
  std::size_t i = channel_hash(channel) & mask;
  for (; slots_[i].used; i = (i + 1) & mask)
    if (slots_[i].channel == channel) return slots_[i].queue;
  if (2 * (used_ + 1) > slots_.size()) {
    std::size_t live = 0;
    for (const Slot& slot : slots_) live += slot.used && slot.queue.head != kNone;
    std::size_t slots = kMinSlots;
    while (slots < 4 * (live + 1)) slots *= 2;
    rebuild(slots);
    return queue(channel);
  }
  ++used_;
  slots_[i].used = true;
  slots_[i].channel = channel;
  slots_[i].queue = Queue{};
  return slots_[i].queue;
}

std::size_t MatchTable::find(const trace::Channel& channel) const {
  if (slots_.empty()) return kNoSlot;
  std::size_t mask = slots_.size() - 1;
  for (std::size_t i = channel_hash(channel) & mask; slots_[i].used; i = (i + 1) & mask)
    if (slots_[i].channel == channel) return i;
  return kNoSlot;
}

void MatchTable::rebuild(std::size_t slots) {
  std::vector<Slot> old(slots);
  old.swap(slots_);
  used_ = 0;
  std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (!slot.used || slot.queue.head == kNone) continue;
    std::size_t i = channel_hash(slot.channel) & mask;
    while (slots_[i].used) i = (i + 1) & mask;
    slots_[i] = slot;
    ++used_;
  }
}

std::int32_t MatchTable::pop(Queue& q) {
  std::int32_t head = q.head;
  q.head = links(q.receives)[static_cast<std::size_t>(head)];
  if (q.head == kNone) q.tail = kNone;
  return head;
}

// The head of `channel`'s queue if it holds `receives`, out of the table; kNone if none.
std::int32_t MatchTable::take(const trace::Channel& channel, bool receives) {
  std::size_t i = find(channel);
  if (i == kNoSlot) return kNone;
  Queue& q = slots_[i].queue;
  return q.head != kNone && q.receives == receives ? pop(q) : kNone;
}

// `id` (a receive if `receive`, else a message) takes the head of the other kind's queue on
// `channel`, or joins the tail of its own.
std::int32_t MatchTable::take_or_append(const trace::Channel& channel, std::uint32_t id,
                                        bool receive) {
  Queue& q = queue(channel);
  if (q.head != kNone && q.receives != receive) return pop(q);
  std::vector<std::int32_t>& next = links(receive);
  if (next.size() <= id) next.resize(id + 1, kNone);
  next[id] = kNone;
  if (q.tail == kNone) q.head = static_cast<std::int32_t>(id);
  else next[static_cast<std::size_t>(q.tail)] = static_cast<std::int32_t>(id);
  q.tail = static_cast<std::int32_t>(id);
  q.receives = receive;
  return kNone;
}

std::int32_t MatchTable::send(const trace::Channel& channel, std::uint32_t message) {
  return take_or_append(channel, message, false);
}

std::int32_t MatchTable::receive(const trace::Channel& channel, std::uint32_t receive) {
  return take_or_append(channel, receive, true);
}

bool MatchTable::has_receives(const trace::Channel& channel) const {
  std::size_t i = find(channel);
  return i != kNoSlot && slots_[i].queue.head != kNone && slots_[i].queue.receives;
}

std::vector<MatchTable::Pending> MatchTable::pending() const {
  std::vector<Pending> out;
  for (const Slot& slot : slots_) {
    const Queue& q = slot.queue;
    if (!slot.used || q.head == kNone) continue;
    Pending p{slot.channel, q.receives, {}};
    const std::vector<std::int32_t>& next = q.receives ? next_receive_ : next_message_;
    for (std::int32_t id = q.head; id != kNone; id = next[static_cast<std::size_t>(id)])
      p.ids.push_back(static_cast<std::uint32_t>(id));
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tareador::replay
