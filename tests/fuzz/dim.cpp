// The .dim reader (tracefmt/dimemas.cpp), then the validator and a replay of what it accepts.
#include "fuzz.h"

namespace tareador::fuzz {

int fuzz_dim(const std::uint8_t* data, std::size_t size) {
  Scratch& scratch = Scratch::get();
  scratch.clear();
  std::string path = scratch.write("input.dim", {reinterpret_cast<const char*>(data), size});
  expecting_bad_input([&] {
    std::vector<std::unique_ptr<trace::Trace>> traces;
    traces.push_back(trace::open_dimemas(path));
    replay_all(traces, test_machine());
  });
  return 0;
}

}  // namespace tareador::fuzz
