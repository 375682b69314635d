#include "replay/cache_lines.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace tareador::replay {

namespace {

// Floor division for a positive divisor (offsets may be negative).
std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && a < 0); }

std::int64_t modulo(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

void check_line(std::int64_t line) {
  if (line <= 0) throw std::invalid_argument("a cache line has a positive size");
}

}  // namespace

std::int64_t contiguous_lines(std::int64_t offset, std::int64_t bytes, std::int64_t line) {
  check_line(line);
  if (bytes <= 0) return 0;
  return (modulo(offset, line) + bytes + line - 1) / line;
}

LineBounds contiguous_lines_bounds(std::int64_t bytes, std::int64_t line) {
  check_line(line);
  if (bytes <= 0) return {};
  // Aligned, the fewest; starting on a line's last byte, the most.
  return {(bytes + line - 1) / line, (bytes + 2 * line - 2) / line};
}

std::int64_t strided_lines(std::int64_t offset, std::int64_t count, std::int64_t block,
                           std::int64_t stride, std::int64_t line) {
  check_line(line);
  if (count <= 0 || block <= 0) return 0;
  if (stride < block)
    throw std::invalid_argument("blocks " + std::to_string(stride) + " bytes apart overlap (" +
                                std::to_string(block) + " bytes each)");
  // Lines block i+1 adds when block i starts at `o` in its line (block i's first line is 0).
  auto added = [&](std::int64_t o) {
    std::int64_t previous_last = (o + block - 1) / line;
    std::int64_t first = (o + stride) / line, last = (o + stride + block - 1) / line;
    return last - std::max(first - 1, previous_last);
  };
  const std::int64_t period = line / std::gcd(stride % line, line);  // gcd(0, line) = line
  const std::int64_t steps = count - 1, full = steps / period, rest = steps % period;
  std::int64_t per_period = 0, partial = 0, o = modulo(offset, line);
  for (std::int64_t j = 0; j < period; ++j) {
    std::int64_t a = added(o);
    per_period += a;
    if (j < rest) partial += a;
    o = (o + stride) % line;
  }
  return contiguous_lines(offset, block, line) + full * per_period + partial;
}

LineBounds strided_lines_bounds(std::int64_t count, std::int64_t block, std::int64_t stride,
                                std::int64_t line) {
  check_line(line);
  LineBounds b{strided_lines(0, count, block, stride, line), 0};
  b.high = b.low;
  for (std::int64_t offset = 1; offset < line; ++offset) {
    std::int64_t u = strided_lines(offset, count, block, stride, line);
    b.low = std::min(b.low, u);
    b.high = std::max(b.high, u);
  }
  return b;
}

std::int64_t indexed_lines(std::vector<Block> blocks, std::int64_t line) {
  check_line(line);
  blocks.erase(
      std::remove_if(blocks.begin(), blocks.end(), [](const Block& b) { return b.bytes <= 0; }),
      blocks.end());
  std::sort(blocks.begin(), blocks.end(),
            [](const Block& a, const Block& b) { return a.start < b.start; });
  std::int64_t lines = 0;
  bool any = false;
  std::int64_t counted_to = 0;  // the last line counted
  for (const Block& b : blocks) {
    std::int64_t first = floor_div(b.start, line), last = floor_div(b.start + b.bytes - 1, line);
    if (any) first = std::max(first, counted_to + 1);
    if (last >= first) lines += last - first + 1;
    counted_to = any ? std::max(counted_to, last) : last;
    any = true;
  }
  return lines;
}

}  // namespace tareador::replay
