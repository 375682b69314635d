// quad_heap.h — a 4-ary min-heap: half the depth of a binary heap, with the four children of a
// node side by side in memory. The replay's large heaps use it: the agenda (EventQueue) and the
// instances ready on a node (TaskCores), where millions may wait and a binary heap's sifts
// were mostly cache misses.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace tareador::replay {

template <class T, class Less = std::less<T>>
class QuadHeap {
 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& top() const { return items_.front(); }

  void push(T item) {
    std::size_t i = items_.size();
    items_.push_back(item);
    while (i > 0) {
      std::size_t parent = (i - 1) / 4;
      if (!less_(item, items_[parent])) break;
      items_[i] = std::move(items_[parent]);
      i = parent;
    }
    items_[i] = std::move(item);
  }

  T pop() {
    T top = std::move(items_.front());
    T last = std::move(items_.back());
    items_.pop_back();
    if (!items_.empty()) sift_down(std::move(last));
    return top;
  }

 private:
  // Puts `item` in the hole at the root. Picking the least of four children with selects rather
  // than branches matters: these comparisons are unpredictable.
  void sift_down(T item) {
    std::size_t n = items_.size(), i = 0;
    for (std::size_t first = 1; first < n; first = 4 * i + 1) {
      std::size_t best = first;
      if (first + 3 < n) {
        std::size_t a = first + less_(items_[first + 1], items_[first]);
        std::size_t b = first + 2 + less_(items_[first + 3], items_[first + 2]);
        best = less_(items_[b], items_[a]) ? b : a;
      } else {
        for (std::size_t c = first + 1; c < n; ++c)
          best = less_(items_[c], items_[best]) ? c : best;
      }
      if (!less_(items_[best], item)) break;
      items_[i] = std::move(items_[best]);
      i = best;
    }
    items_[i] = std::move(item);
  }

  std::vector<T> items_;
  Less less_;
};

}  // namespace tareador::replay
