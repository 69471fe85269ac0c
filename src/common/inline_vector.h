// InlineVector: a growable array of trivially copyable values whose first N elements live
// inside the object (no allocation for the common small case); past N it moves to the heap.
// Only what the hot paths need: push_back, size, operator[], iteration, clear, reserve.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

namespace aclsim {

template <typename T, size_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T>, "InlineVector holds plain values");

 public:
  InlineVector() = default;
  InlineVector(std::initializer_list<T> values) {
    for (const T& value : values) push_back(value);
  }

  void push_back(const T& value) {
    if (!heap_.empty()) {
      heap_.push_back(value);
    } else if (size_ < N) {
      inline_[size_] = value;
    } else {
      heap_.reserve(2 * N);
      heap_.assign(inline_.begin(), inline_.end());
      heap_.push_back(value);
    }
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return heap_.empty() ? inline_[i] : heap_[i]; }
  T& operator[](size_t i) { return heap_.empty() ? inline_[i] : heap_[i]; }
  void clear() {
    size_ = 0;
    heap_.clear();
  }
  // A hint: holds nothing back but a move to the heap when more than N elements are expected
  // and some are already there (an empty vector moves when it outgrows N).
  void reserve(size_t n) {
    if (n <= N || !heap_.empty() || size_ == 0) return;
    heap_.reserve(n);
    heap_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(size_));
  }
  const T* data() const { return heap_.empty() ? inline_.data() : heap_.data(); }
  T* data() { return heap_.empty() ? inline_.data() : heap_.data(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }

 private:
  std::array<T, N> inline_{};
  size_t size_ = 0;
  std::vector<T> heap_;
};

}  // namespace aclsim
