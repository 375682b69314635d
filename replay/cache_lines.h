// cache_lines.h — U, the number of unique cache lines a message's data touches (the cache-aware
// cost model of Stricker et al.: marshalling costs U x a per-line cost). Exact for a known start
// address, and bounded over every alignment for an unknown one. Contiguous and strided (MPI
// vector: count blocks of `block` bytes, `stride` bytes apart) layouts have closed forms;
// indexed layouts (any blocks) are counted by merging their lines.
#pragma once

#include <cstdint>
#include <vector>

namespace tareador::replay {

// The cache line of the traces' `lines` fields (docs/trace-format.md).
inline constexpr std::int64_t kTraceLineBytes = 64;

struct LineBounds {
  std::int64_t low = 0, high = 0;  // fewest and most lines over every start offset
};

// `bytes` contiguous bytes from `offset` (the address; only offset mod line matters).
std::int64_t contiguous_lines(std::int64_t offset, std::int64_t bytes, std::int64_t line);
// Over every alignment: ceil(bytes / line), and one more unless a line is one byte apart.
LineBounds contiguous_lines_bounds(std::int64_t bytes, std::int64_t line);

// `count` blocks of `block` bytes, block i at offset + i * stride (stride >= block > 0). The
// lines a block adds over the previous one depend only on where the previous one starts in its
// line, which repeats every line / gcd(stride, line) blocks: O(line) whatever `count`.
// Throws std::invalid_argument when stride < block (overlapping blocks: use indexed_lines).
std::int64_t strided_lines(std::int64_t offset, std::int64_t count, std::int64_t block,
                           std::int64_t stride, std::int64_t line);
LineBounds strided_lines_bounds(std::int64_t count, std::int64_t block, std::int64_t stride,
                                std::int64_t line);

// Blocks of any placement: {start address, bytes} in any order, possibly overlapping.
struct Block {
  std::int64_t start = 0, bytes = 0;
};
std::int64_t indexed_lines(std::vector<Block> blocks, std::int64_t line);

}  // namespace tareador::replay
