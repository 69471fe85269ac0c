// The model subscriptions of one runtime (dfx/prof_subscriptions.h).
#include "dfx/prof_subscriptions.h"

#include <unistd.h>

#include "dfx/profiler.h"

namespace aclsim::dfx::prof {

SubscriptionBook::~SubscriptionBook() {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& entry : subscriptions_) Profiler::Get().Unsubscribe(entry.first);
}

Status SubscriptionBook::Add(uint32_t model_id, Subscription subscription) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!subscriptions_.emplace(model_id, subscription).second) {
    return Err(StatusCode::kProfRepeatSubscribe, "model {} is already subscribed", model_id);
  }
  Profiler::Get().Subscribe(model_id);
  return Status::Ok();
}

bool SubscriptionBook::Has(uint32_t model_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return subscriptions_.count(model_id) != 0;
}

Status SubscriptionBook::Deliver(uint32_t model_id,
                                 const std::function<Status(const Subscription&)>& deliver) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = subscriptions_.find(model_id);
  return it == subscriptions_.end() ? Status::Ok() : deliver(it->second);
}

bool SubscriptionBook::Remove(uint32_t model_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = subscriptions_.find(model_id);
  if (it == subscriptions_.end()) return false;
  Profiler::Get().Unsubscribe(model_id);
  ::close(it->second.fd);  // as CANN: the pipe's write end closes after the last data
  subscriptions_.erase(it);
  return true;
}

}  // namespace aclsim::dfx::prof
