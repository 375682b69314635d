// The names and baselines of the traces of an input (comparisons.h).
#include "analysis/comparisons.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace tareador::replay {

std::vector<std::string> trace_labels(const std::vector<const trace::Trace*>& traces) {
  std::set<std::string> kinds;
  for (const trace::Trace* t : traces) kinds.insert(t->header().kind);
  const bool by_kind = kinds.size() == traces.size();
  std::vector<std::string> labels;
  std::set<std::string> seen;
  for (const trace::Trace* t : traces) {
    const trace::TraceHeader& h = t->header();
    std::filesystem::path path(h.path);
    if (path.filename().empty()) path = path.parent_path();  // "set/"
    const std::string stem = path.stem().string();
    std::string label = h.kind == "dimemas" ? (by_kind && traces.size() > 1 ? h.kind : stem)
                        : by_kind           ? h.kind
                                            : stem + "." + h.kind;
    if (!seen.insert(label).second)
      throw trace::FormatError(h.path, 0,
                               "its outputs would overwrite those of another input of the same "
                               "name; replay them one at a time");
    labels.push_back(std::move(label));
  }
  return labels;
}

int baseline_index(const std::vector<std::string>& kinds, std::size_t i) {
  auto index_of = [&](const char* kind) {
    auto at = std::find(kinds.begin(), kinds.end(), kind);
    return at == kinds.end() ? -1 : static_cast<int>(at - kinds.begin());
  };
  const std::string& kind = kinds[i];
  if (kind == "authentic" || kind == "authentic-p2p") return -1;
  if (kind.rfind("overlap-", 0) == 0 && index_of("authentic-p2p") >= 0)
    return index_of("authentic-p2p");
  return index_of("authentic");
}

std::string baseline_explanation(const std::string& kind) {
  if (kind != "authentic-p2p") return "";
  return "authentic-p2p is the authentic run with its collectives as the same point-to-point "
         "transfers as the overlap kinds: their speedup over it is the overlap's alone, where "
         "over authentic it would also count the change from Dimemas's collective model";
}

std::string overlap_caution(const Machine& machine) {
  if (machine.buses > 0 || !(machine.bandwidth > 0)) return "";
  bool unlimited_out = false, unlimited_in = false;
  for (const Node& node : machine.nodes) {
    unlimited_out = unlimited_out || node.output_links == 0;
    unlimited_in = unlimited_in || node.input_links == 0;
  }
  if (!unlimited_out || !unlimited_in) return "";
  return "caution: this network limits neither links nor buses, so transfers in flight together "
         "each get the whole bandwidth (the chunks of a message arrive sooner than the message "
         "would; messages sent earlier travel beside later ones): part of the overlap kinds' "
         "speedups may come from that, not from overlap (compare them on a network with links, "
         "docs/tool.md)";
}

}  // namespace tareador::replay
