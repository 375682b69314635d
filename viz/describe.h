// describe.h — the words for a record: the tooltip (short) and the details panel (detailed).
#pragma once

#include <QString>

#include "viz/view_state.h"

namespace tareador::view {

// Rich text: times, duration, size, tag, the state or value name, the task and the source
// location when the trace has them.
QString describe(const ViewState& state, const Hit& hit, bool detailed);

// The value of event type `type` in force at `time` on a thread row (values nest: 0 ends the
// latest), or 0.
std::uint64_t value_in_force(const Timeline& timeline, std::uint32_t thread_row, Time time,
                             std::uint32_t type);

}  // namespace tareador::view
