// config.h — the machine readers behind load_machine, and the collective-model names they
// share with --set (internal to replay).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tareador/replay.h"

namespace tareador::replay {

// `text` without leading and trailing white space.
std::string_view trim(std::string_view text);

// The two readers load_machine dispatches to: the Dimemas one reads files whose first line
// is_dimemas_config (Dimemas 5, or the SDDFA 2.5 format of older Dimemas).
bool is_dimemas_config(std::string_view first_line);
Machine load_dimemas_config(const std::string& path);
Machine load_toml_machine(const std::string& path);

// Case-insensitive names shared by every input: "none" (or "0"), "constant" ("cte"), "linear"
// ("lin"), "logarithmic" ("log"); sizes "current" ("curr"), "min", "max", "mean", "2max", "s+r".
std::optional<CollectiveModel> collective_model_from_name(std::string_view name);
std::optional<CollectiveSize> collective_size_from_name(std::string_view name);

}  // namespace tareador::replay
