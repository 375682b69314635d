// marshalling.h — the cache-aware model's term of a message's transfer (Stricker et al.):
// U x the machine's cost per line, U the unique cache lines its data touches (internal to
// replay/; docs/machine-config.md).
#pragma once

#include "tareador/replay.h"
#include "tareador/trace.h"

namespace tareador::replay {

// Seconds the send `record` spends marshalling on `machine`: 0 when the machine's
// marshal_line_cost is 0 (Dimemas's model, to the bit); else U x that cost, U the record's
// `lines`, or for a send that has none (contiguous data) the lines of its bytes from a line's
// start.
double marshalling_seconds(const Machine& machine, const trace::Record& record);

}  // namespace tareador::replay
