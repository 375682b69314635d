#include "replay/marshalling.h"

#include "replay/cache_lines.h"

namespace tareador::replay {

double marshalling_seconds(const Machine& machine, const trace::Record& record) {
  if (machine.marshal_line_cost == 0) return 0;
  const std::int64_t lines =
      record.lines > 0 ? record.lines : contiguous_lines(0, record.bytes, trace::kTraceLineBytes);
  return static_cast<double>(lines) * machine.marshal_line_cost;
}

}  // namespace tareador::replay
