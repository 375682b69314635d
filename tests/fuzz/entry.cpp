// The libFuzzer entry point of one harness: built once per harness with -DFUZZ_TARGET=fuzz_NAME.
#include "fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return tareador::fuzz::FUZZ_TARGET(data, size);
}
