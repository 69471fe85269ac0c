// The model subscriptions of one runtime (aclprofModelSubscribe): each subscribed model's
// pipe and whether its op info carries times.
//
// The runtime owns the book (core::Runtime::attachments), so at aclFinalize every remaining
// subscription ends: the profiler stops tracing the model, and nothing of one init's
// subscriptions reaches the next. The pipe stays open then (only aclprofModelUnSubscribe
// closes it, as CANN's does; the program may still close it itself).
//
// Thread-safety: every member may be called from any thread; Deliver runs its function under
// the book's lock, so a delivery and an unsubscription of the same model never interleave.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "common/status.h"

namespace aclsim::dfx::prof {

class SubscriptionBook {
 public:
  struct Subscription {
    int fd = -1;  // the subscriber's pipe (write end)
    bool time_info = true;
  };

  SubscriptionBook() = default;
  SubscriptionBook(const SubscriptionBook&) = delete;
  SubscriptionBook& operator=(const SubscriptionBook&) = delete;
  ~SubscriptionBook();  // untraces every remaining model (pipes stay open)

  // Subscribes `model_id` (the profiler starts tracing it); kProfRepeatSubscribe if it is
  // subscribed already.
  Status Add(uint32_t model_id, Subscription subscription);
  bool Has(uint32_t model_id) const;
  // Calls deliver(subscription) if `model_id` is subscribed; its status, else OK.
  Status Deliver(uint32_t model_id, const std::function<Status(const Subscription&)>& deliver);
  // Ends the subscription (untraced, pipe closed); false if `model_id` was not subscribed.
  bool Remove(uint32_t model_id);

 private:
  mutable std::mutex mu_;
  std::map<uint32_t, Subscription> subscriptions_;
};

}  // namespace aclsim::dfx::prof
