// record_code.h — records kept in memory in a few bytes each (internal to tracefmt).
//
// A tasks trace is held in memory (its sections come in the order instances ended, not the
// order they run): as 80-byte Records, 2 million instances would take a gigabyte. Encoded, a
// record is its type, its flags, a mask of the fields that differ from a default Record and
// those fields as variable-length integers (an instruction count as one too), then the
// distance in lines from the previous record and the length of its line: 8 to 12 bytes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tareador/trace.h"

namespace tareador::trace {

class RecordCode {
 public:
  // Ends the records of a stream: no record's type has this value.
  static constexpr std::uint8_t kEnd = 0xff;

  // Appends `r`, read at `line` (`bytes` long); `previous_line` is updated. (Encoded in a
  // buffer of its own first: one growth of `out` per record, not one per byte.)
  static void append(std::vector<std::uint8_t>& out, const Record& r, std::uint64_t line,
                     std::uint64_t bytes, std::uint64_t& previous_line) {
    std::uint8_t code[kMaxBytes];
    std::uint8_t* end = code;
    *end++ = static_cast<std::uint8_t>(r.type);
    *end++ = r.flags;
    unsigned mask = 0;
    const Record none;
    std::int64_t signed_fields[] = {r.op,    r.peer, r.peer_thread, r.comm,
                                    r.lines, r.tag,  r.bytes,       r.bytes_recv};
    const std::int64_t signed_none[] = {none.op,    none.peer, none.peer_thread, none.comm,
                                        none.lines, none.tag,  none.bytes,       none.bytes_recv};
    for (unsigned k = 0; k < 8; ++k)
      if (signed_fields[k] != signed_none[k]) mask |= 1u << k;
    if (r.request) mask |= kRequest;
    if (r.event_type) mask |= kEventType;
    if (r.event_value) mask |= kEventValue;
    bool whole = r.amount >= 0 && r.amount < 9007199254740992.0 &&
                 r.amount == static_cast<double>(static_cast<std::uint64_t>(r.amount));
    if (r.amount != 0 || std::signbit(r.amount)) mask |= whole ? kWholeAmount : kAmount;
    put(end, mask);
    for (unsigned k = 0; k < 8; ++k)
      if (mask & (1u << k)) put(end, zigzag(signed_fields[k]));
    if (mask & kRequest) put(end, r.request);
    if (mask & kEventType) put(end, r.event_type);
    if (mask & kEventValue) put(end, r.event_value);
    if (mask & kWholeAmount) put(end, static_cast<std::uint64_t>(r.amount));
    if (mask & kAmount) {
      std::memcpy(end, &r.amount, sizeof(double));
      end += sizeof(double);
    }
    put(end, zigzag(static_cast<std::int64_t>(line - previous_line)));
    put(end, bytes);
    out.insert(out.end(), code, end);
    previous_line = line;
  }

  // Reads the record at `at` (advanced past it); `line` goes from the previous record's line
  // to this one's, `bytes` is its line's length.
  static void read(const std::uint8_t*& at, Record& r, std::uint64_t& line, std::uint64_t& bytes) {
    r = Record{};
    r.type = static_cast<RecordType>(*at++);
    r.flags = *at++;
    auto mask = static_cast<unsigned>(get(at));
    std::int64_t signed_fields[8] = {};
    for (unsigned k = 0; k < 8; ++k)
      if (mask & (1u << k)) signed_fields[k] = unzigzag(get(at));
    if (mask & 0xffu) {
      r.op = static_cast<std::int32_t>(mask & 1u ? signed_fields[0] : r.op);
      r.peer = static_cast<std::int32_t>(mask & 2u ? signed_fields[1] : r.peer);
      r.peer_thread = static_cast<std::int32_t>(mask & 4u ? signed_fields[2] : r.peer_thread);
      r.comm = static_cast<std::int32_t>(signed_fields[3]);
      r.lines = static_cast<std::int32_t>(signed_fields[4]);
      r.tag = signed_fields[5];
      r.bytes = signed_fields[6];
      r.bytes_recv = signed_fields[7];
    }
    if (mask & kRequest) r.request = get(at);
    if (mask & kEventType) r.event_type = get(at);
    if (mask & kEventValue) r.event_value = get(at);
    if (mask & kWholeAmount) r.amount = static_cast<double>(get(at));
    if (mask & kAmount) {
      std::memcpy(&r.amount, at, sizeof(double));
      at += sizeof(double);
    }
    line = static_cast<std::uint64_t>(static_cast<std::int64_t>(line) + unzigzag(get(at)));
    bytes = get(at);
  }

 private:
  static constexpr unsigned kRequest = 1u << 8, kEventType = 1u << 9, kEventValue = 1u << 10,
                            kWholeAmount = 1u << 11, kAmount = 1u << 12;
  // The longest code: type, flags, a 13-bit mask (2 bytes) and 14 numbers of up to 10 bytes (8
  // fields, request, event type and value, a whole amount, line and length; a raw amount is 8).
  static constexpr std::size_t kMaxBytes = 1 + 1 + 2 + 14 * 10;

  static std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  }
  static std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  // LEB128: seven bits a byte, the high bit set on all but the last.
  static void put(std::uint8_t*& out, std::uint64_t v) {
    while (v >= 0x80) {
      *out++ = static_cast<std::uint8_t>(v | 0x80);
      v >>= 7;
    }
    *out++ = static_cast<std::uint8_t>(v);
  }
  static std::uint64_t get(const std::uint8_t*& at) {
    std::uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      std::uint8_t b = *at++;
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
  }
};

}  // namespace tareador::trace
