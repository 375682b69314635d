// gen_ring — writes a synthetic Dimemas trace for benchmarks: P ranks in a ring, each iteration
// a CPU burst, an immediate send to the right, an immediate receive from the left and its wait.
//
//   gen_ring RANKS RECORDS OUT.dim [BYTES]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "tareador/trace.h"

namespace trace = tareador::trace;

namespace {

void write_ring(const char* path, int ranks, long long iterations, long long bytes) {
  trace::TraceHeader header;
  header.name = "ring";
  header.threads.assign(static_cast<std::size_t>(ranks), 1);
  trace::Communicator world;
  world.id = 1;
  for (int r = 0; r < ranks; ++r) world.tasks.push_back(r);
  header.communicators.push_back(world);

  auto writer = trace::make_dimemas_writer(path, header);
  for (int rank = 0; rank < ranks; ++rank) {
    writer->begin(rank, 0);
    for (long long i = 0; i < iterations; ++i) {
      trace::Record burst;
      burst.type = trace::RecordType::Burst;
      // 10 to 16 us, a little imbalanced, in whole nanoseconds as traces written by tools are
      burst.amount = (10000 + 1000 * ((rank + i) % 7)) / 1e9;
      writer->write(burst);

      trace::Record send;
      send.type = trace::RecordType::Send;
      send.flags = trace::kImmediate;
      send.peer = (rank + 1) % ranks;
      send.bytes = bytes;
      send.tag = 1;
      send.comm = 1;
      writer->write(send);

      trace::Record recv;
      recv.type = trace::RecordType::Recv;
      recv.flags = trace::kImmediate;
      recv.peer = (rank + ranks - 1) % ranks;
      recv.bytes = bytes;
      recv.tag = 1;
      recv.comm = 1;
      recv.request = static_cast<std::uint64_t>(i + 1);
      writer->write(recv);

      trace::Record wait;
      wait.type = trace::RecordType::Wait;
      wait.request = recv.request;
      writer->write(wait);
    }
  }
  writer->finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: gen_ring RANKS RECORDS OUT.dim [BYTES]\n");
    return 1;
  }
  int ranks = std::atoi(argv[1]);
  long long records = std::atoll(argv[2]);
  long long bytes = argc == 5 ? std::atoll(argv[4]) : 65536;
  if (ranks < 2 || records < 4LL * ranks || bytes < 0) {
    std::fprintf(stderr, "gen_ring: need RANKS >= 2, RECORDS >= 4*RANKS, BYTES >= 0\n");
    return 1;
  }
  long long iterations = records / (4LL * ranks);

  try {
    write_ring(argv[3], ranks, iterations, bytes);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gen_ring: %s\n", e.what());
    return 1;
  }
  std::printf("%s: %d ranks, %lld records\n", argv[3], ranks, iterations * 4 * ranks);
  return 0;
}
