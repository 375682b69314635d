// U, the unique cache lines of a message (replay/cache_lines.h): every closed form against brute
// force (each byte's line counted once), over every alignment, for line sizes 8, 16 and 64.
#include "replay/cache_lines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace tareador {
namespace {

using replay::Block;

std::int64_t brute_force(const std::vector<Block>& blocks, std::int64_t line) {
  std::set<std::int64_t> lines;
  for (const Block& b : blocks)
    for (std::int64_t byte = b.start; byte < b.start + b.bytes; ++byte)
      lines.insert(byte >= 0 ? byte / line : (byte - line + 1) / line);
  return static_cast<std::int64_t>(lines.size());
}

std::vector<Block> vector_blocks(std::int64_t offset, std::int64_t count, std::int64_t block,
                                 std::int64_t stride) {
  std::vector<Block> out;
  for (std::int64_t i = 0; i < count; ++i) out.push_back({offset + i * stride, block});
  return out;
}

TEST(CacheLines, ContiguousAgainstBruteForce) {
  for (std::int64_t line : {8, 16, 64})
    for (std::int64_t bytes = 0; bytes <= 3 * line + 1; ++bytes) {
      std::int64_t low = -1, high = -1;
      for (std::int64_t offset = 0; offset < line; ++offset) {
        std::int64_t want = brute_force({{offset + 5 * line, bytes}}, line);
        ASSERT_EQ(replay::contiguous_lines(offset + 5 * line, bytes, line), want)
            << bytes << " bytes at " << offset << ", line " << line;
        low = low < 0 ? want : std::min(low, want);
        high = std::max(high, want);
      }
      replay::LineBounds b = replay::contiguous_lines_bounds(bytes, line);
      EXPECT_EQ(b.low, low) << bytes;
      EXPECT_EQ(b.high, high) << bytes;
    }
  // 1000 bytes: 16 lines of 64 aligned, 17 from byte 40 on.
  EXPECT_EQ(replay::contiguous_lines(0, 1000, 64), 16);
  EXPECT_EQ(replay::contiguous_lines(40, 1000, 64), 17);
}

TEST(CacheLines, StridedAgainstBruteForce) {
  for (std::int64_t line : {8, 16})
    for (std::int64_t block = 1; block <= 2 * line + 1; ++block)
      for (std::int64_t stride = block; stride <= 3 * line + 2; ++stride)
        for (std::int64_t count : {1, 2, 3, 7, 17, 40}) {
          std::int64_t low = -1, high = -1;
          for (std::int64_t offset = 0; offset < line; ++offset) {
            std::int64_t want = brute_force(vector_blocks(offset, count, block, stride), line);
            ASSERT_EQ(replay::strided_lines(offset, count, block, stride, line), want)
                << count << " x " << block << " every " << stride << " at " << offset << ", line "
                << line;
            low = low < 0 ? want : std::min(low, want);
            high = std::max(high, want);
          }
          replay::LineBounds b = replay::strided_lines_bounds(count, block, stride, line);
          ASSERT_EQ(b.low, low);
          ASSERT_EQ(b.high, high);
        }
}

TEST(CacheLines, AColumnTouchesALinePerElement) {
  // The paper's example: a column of 4-byte integers of a matrix with rows wider than a line
  // touches 16 times the lines of a row of as many bytes.
  const std::int64_t rows = 1000, row_bytes = 2000 * 4;
  EXPECT_EQ(replay::strided_lines(0, rows, 4, row_bytes, 64), 1000);
  EXPECT_EQ(replay::contiguous_lines(0, rows * 4, 64), 63);
  // Two columns: rows of 8000 bytes keep every pair inside one line (8000 = 125 x 64).
  EXPECT_EQ(replay::strided_lines(0, rows, 8, row_bytes, 64), 1000);
  EXPECT_EQ(replay::strided_lines(60, rows, 8, row_bytes, 64), 2000);
}

TEST(CacheLines, IndexedAgainstBruteForce) {
  const std::vector<std::vector<Block>> layouts = {
      {},
      {{0, 10}},
      {{100, 4}, {0, 4}, {60, 8}},        // out of order, one straddles a line
      {{0, 64}, {32, 64}, {200, 1}},      // overlapping
      {{-10, 20}, {500, 0}, {640, 65}},   // before 0, empty block, 2 lines
      {{3, 1}, {5, 1}, {7, 1}, {70, 3}},  // several per line
  };
  for (const auto& blocks : layouts)
    for (std::int64_t line : {8, 64})
      EXPECT_EQ(replay::indexed_lines(blocks, line), brute_force(blocks, line))
          << blocks.size() << " blocks, line " << line;
}

TEST(CacheLines, BadLayoutsAreErrors) {
  EXPECT_THROW(replay::strided_lines(0, 3, 8, 4, 64), std::invalid_argument);
  EXPECT_THROW(replay::contiguous_lines(0, 8, 0), std::invalid_argument);
}

}  // namespace
}  // namespace tareador
