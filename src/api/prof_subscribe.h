// The model subscription's delivery (prof_subscribe.cc), for the model execution shims.
//
// Thread-safety: may be called from any thread.
#pragma once

#include <cstdint>

namespace aclsim::api::prof {

// After an execution of model `model_id`: a subscriber (aclprofModelSubscribe) gets the op
// info of its kernels timed so far (`flush`: time every launched task first).
void DeliverSubscribed(uint32_t model_id, bool flush);

}  // namespace aclsim::api::prof
