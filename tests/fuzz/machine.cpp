// The machine readers (replay/config_dimemas.cpp, replay/config_toml.cpp) through load_machine,
// then a replay on what they accept: a small trace with messages, collectives and threads.
#include "fuzz.h"

namespace tareador::fuzz {

namespace {

// Two tasks, the second with two threads: bursts, messages both ways, an immediate receive, a
// collective of each kind of size rule and a no-op.
constexpr std::string_view kTrace =
    "#DIMEMAS:\"fuzz\":0:2(1,2),1\n"
    "d:1:1:2:0:1\n"
    "1:0:0:0.001\n"
    "2:0:0:1:-1:1000:1:1:0\n"
    "3:0:0:1:-1:2000000:2:1:1\n"
    "10:0:0:11:1:1:0:4096:4096:1\n"
    "3:0:0:1:-1:2000000:2:1:2\n"
    "10:0:0:8:1:0:0:65536:65536\n"
    "1:1:0:0.002\n"
    "3:1:0:0:-1:1000:1:1:0\n"
    "2:1:0:0:-1:2000000:2:1:1\n"
    "10:1:0:11:1:0:0:4096:4096:1\n"
    "0:1:0\n"
    "10:1:0:8:1:0:0:65536:65536\n"
    "1:1:1:0.0005\n";

void replay_on(const std::string& config) {
  expecting_bad_input([&] {
    replay::Machine machine = replay::load_machine(config);
    for (const char* set : {"cores=1", "nodes=3", "mapping=interleaved"}) {
      replay::Machine changed = machine;
      expecting_bad_input([&] {
        replay::apply_override(changed, set);
        (void)changed.map_tasks(2);
      });
    }
    static const std::string path = Scratch::get().write("keep-trace.dim", kTrace);
    std::vector<std::unique_ptr<trace::Trace>> traces;
    traces.push_back(trace::open_dimemas(path));
    // As the file maps the tasks, else filling its nodes (a mapping for fewer tasks).
    try {
      (void)machine.map_tasks(2);
    } catch (const std::invalid_argument&) {
      replay::apply_override(machine, "mapping=fill");
    }
    replay_all(traces, machine, false);
  });
}

}  // namespace

int fuzz_cfg(const std::uint8_t* data, std::size_t size) {
  Scratch& scratch = Scratch::get();
  scratch.clear();
  // A second part is the collectives file a `configuration files` record may name ("coll").
  std::vector<std::string_view> parts = split_parts(data, size);
  if (parts.size() > 1) scratch.write("coll", parts[1]);
  replay_on(scratch.write("machine.cfg", parts[0]));
  return 0;
}

int fuzz_toml(const std::uint8_t* data, std::size_t size) {
  Scratch& scratch = Scratch::get();
  scratch.clear();
  replay_on(scratch.write("machine.toml", {reinterpret_cast<const char*>(data), size}));
  return 0;
}

}  // namespace tareador::fuzz
