// TaskFifo: a queue's pending tasks in submission order (SimQueue::pending).
//
// The thread that submits appends at the tail while a worker removes at the head, each
// under the scheduler's mutex but on different cores. In a std::deque both ends' iterators
// share one cache line, so every submission would first fetch the line the worker just wrote
// (measured: the largest part of Scheduler::Submit's time when the host's cores are slow to
// exchange lines). Here the head and the tail live on cache lines of their own, and the tail
// side checks for room against a copy of the head that it refreshes only when the ring looks
// full.
//
// A ring of T (a power-of-two capacity, doubled when full). Not thread-safe: the caller
// serialises every call (the scheduler's mutex).
#pragma once

#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace aclsim::sim {

template <typename T>
class TaskFifo {
 public:
  TaskFifo() : slots_(kInitialCapacity) {}

  bool empty() const { return head_.index == tail_.index; }
  size_t size() const { return tail_.index - head_.index; }
  const T& front() const { return slots_[head_.index & Mask()]; }

  void push_back(T value) {
    if (tail_.index - tail_.head_seen == slots_.size()) {
      tail_.head_seen = head_.index;  // the only read of the head's line on this side
      if (tail_.index - tail_.head_seen == slots_.size()) Grow();
    }
    slots_[tail_.index & Mask()] = std::move(value);
    ++tail_.index;
  }
  void pop_front() {
    slots_[head_.index & Mask()] = T{};
    ++head_.index;
  }
  // Removes the first element equal to `pred`'s choice, keeping the order of the others.
  template <typename Pred>
  void EraseFirst(Pred pred) {
    for (size_t i = head_.index; i != tail_.index; ++i) {
      if (!pred(slots_[i & Mask()])) continue;
      for (size_t j = i; j + 1 != tail_.index; ++j) {
        slots_[j & Mask()] = std::move(slots_[(j + 1) & Mask()]);
      }
      --tail_.index;
      slots_[tail_.index & Mask()] = T{};
      return;
    }
  }

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;
    const_iterator(const TaskFifo* fifo, size_t index) : fifo_(fifo), index_(index) {}
    reference operator*() const { return fifo_->slots_[index_ & fifo_->Mask()]; }
    pointer operator->() const { return &**this; }
    const_iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return index_ == other.index_; }
    bool operator!=(const const_iterator& other) const { return index_ != other.index_; }

   private:
    const TaskFifo* fifo_;
    size_t index_;
  };
  const_iterator begin() const { return {this, head_.index}; }
  const_iterator end() const { return {this, tail_.index}; }

 private:
  static constexpr size_t kInitialCapacity = 64;
  size_t Mask() const { return slots_.size() - 1; }
  void Grow() {
    std::vector<T> bigger(2 * slots_.size());
    size_t n = 0;
    for (size_t i = head_.index; i != tail_.index; ++i) bigger[n++] = std::move(slots_[i & Mask()]);
    slots_.swap(bigger);
    head_.index = 0;
    tail_.index = n;
    tail_.head_seen = 0;
  }

  std::vector<T> slots_;
  struct alignas(64) Head {
    size_t index = 0;  // of the first element (counts up; the slot is index & Mask())
  } head_;
  struct alignas(64) Tail {
    size_t index = 0;      // one past the last element
    size_t head_seen = 0;  // head_.index as last read here (never ahead of it)
  } tail_;
};

}  // namespace aclsim::sim
