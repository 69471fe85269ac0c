#include "sim/soc_profile.h"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <utility>

namespace aclsim::sim {
namespace {

using Json = nlohmann::json;

// Where a field's value goes. `max` bounds the value for narrower members.
struct FieldSpec {
  const char* name;
  uint64_t max;
  void (*store)(SocProfile& p, uint64_t v);
};

// A DeviceProps member; the value must fit the member's type.
template <auto Member>
FieldSpec Prop(const char* name) {
  using T = std::remove_reference_t<decltype(std::declval<driver::DeviceProps&>().*Member)>;
  return {name, static_cast<uint64_t>(std::numeric_limits<T>::max()),
          [](SocProfile& p, uint64_t v) { p.props.*Member = static_cast<T>(v); }};
}

// A CostParams member (all uint64_t).
template <auto Member>
FieldSpec Cost(const char* name) {
  return {name, std::numeric_limits<uint64_t>::max(),
          [](SocProfile& p, uint64_t v) { p.cost.*Member = v; }};
}

const std::vector<FieldSpec>& Specs() {
  static const std::vector<FieldSpec> specs = {
      Prop<&driver::DeviceProps::npu_arch>("npu_arch"),
      Prop<&driver::DeviceProps::aicore_num>("aicore_num"),
      Prop<&driver::DeviceProps::vector_core_num>("vector_core_num"),
      Prop<&driver::DeviceProps::aicpu_num>("aicpu_num"),
      Prop<&driver::DeviceProps::clock_hz>("clock_hz"),
      Prop<&driver::DeviceProps::l2_bytes>("l2_bytes"),
      Prop<&driver::DeviceProps::ub_bytes>("ub_bytes"),
      Prop<&driver::DeviceProps::hbm_bytes>("hbm_bytes"),
      Prop<&driver::DeviceProps::ddr_bytes>("ddr_bytes"),
      Prop<&driver::DeviceProps::max_streams>("max_streams"),
      Prop<&driver::DeviceProps::max_events>("max_events"),
      Prop<&driver::DeviceProps::stream_priority_least>("stream_priority_least"),
      Prop<&driver::DeviceProps::stream_priority_greatest>("stream_priority_greatest"),
      Prop<&driver::DeviceProps::max_blocks_per_kernel>("max_blocks_per_kernel"),
      Cost<&CostParams::cube_flops_per_cycle_per_core>("cube_flops_per_cycle_per_core"),
      Cost<&CostParams::vector_flops_per_cycle_per_core>("vector_flops_per_cycle_per_core"),
      Cost<&CostParams::aicpu_flops_per_s_per_core>("aicpu_flops_per_s_per_core"),
      Cost<&CostParams::hbm_bytes_per_s>("hbm_bytes_per_s"),
      Cost<&CostParams::pcie_h2d_bytes_per_s>("pcie_h2d_bytes_per_s"),
      Cost<&CostParams::pcie_d2h_bytes_per_s>("pcie_d2h_bytes_per_s"),
      Cost<&CostParams::peer_bytes_per_s>("peer_bytes_per_s"),
      Cost<&CostParams::host_memcpy_bytes_per_s>("host_memcpy_bytes_per_s"),
      Cost<&CostParams::dma_latency_ns>("dma_latency_ns"),
      Cost<&CostParams::dma_h2d_channels>("dma_h2d_channels"),
      Cost<&CostParams::dma_d2h_channels>("dma_d2h_channels"),
      Cost<&CostParams::dma_d2d_channels>("dma_d2d_channels"),
      Cost<&CostParams::dma_peer_channels>("dma_peer_channels"),
      Cost<&CostParams::launch_cost_ns>("launch_cost_ns"),
      Cost<&CostParams::api_submit_cost_ns>("api_submit_cost_ns"),
      Cost<&CostParams::event_cost_ns>("event_cost_ns"),
      Cost<&CostParams::callback_cost_ns>("callback_cost_ns"),
      Cost<&CostParams::memcpy2d_row_cost_ns>("memcpy2d_row_cost_ns"),
      Cost<&CostParams::gm_read_bytes_per_cycle>("gm_read_bytes_per_cycle"),
      Cost<&CostParams::gm_write_bytes_per_cycle>("gm_write_bytes_per_cycle"),
      Cost<&CostParams::l2_read_bytes_per_cycle>("l2_read_bytes_per_cycle"),
      Cost<&CostParams::l1_to_l0a_bytes_per_cycle>("l1_to_l0a_bytes_per_cycle"),
      Cost<&CostParams::l1_to_l0b_bytes_per_cycle>("l1_to_l0b_bytes_per_cycle"),
      Cost<&CostParams::l0c_out_bytes_per_cycle>("l0c_out_bytes_per_cycle"),
      Cost<&CostParams::ub_bytes_per_cycle>("ub_bytes_per_cycle"),
      Cost<&CostParams::cube_int8_flops_per_cycle_per_core>("cube_int8_flops_per_cycle_per_core"),
      Cost<&CostParams::vector_repeat_bytes>("vector_repeat_bytes"),
      Cost<&CostParams::scalar_ops_per_cycle>("scalar_ops_per_cycle"),
      Cost<&CostParams::aicpu_ps_per_element>("aicpu_ps_per_element"),
      Cost<&CostParams::dma_hbm_contention_permille>("dma_hbm_contention_permille"),
      Cost<&CostParams::tlb_access_bytes>("tlb_access_bytes"),
      Cost<&CostParams::tlb_entry_span_bytes>("tlb_entry_span_bytes"),
      Cost<&CostParams::tlb_entries_4k>("tlb_entries_4k"),
      Cost<&CostParams::tlb_entries_2m>("tlb_entries_2m"),
      Cost<&CostParams::tlb_entries_1g>("tlb_entries_1g"),
      Cost<&CostParams::tlb_miss_penalty_cycles>("tlb_miss_penalty_cycles"),
      Cost<&CostParams::stream_create_cost_ns>("stream_create_cost_ns"),
      Cost<&CostParams::stream_destroy_cost_ns>("stream_destroy_cost_ns"),
      Cost<&CostParams::stream_reuse_cost_ns>("stream_reuse_cost_ns"),
      Cost<&CostParams::stream_recycle_cost_ns>("stream_recycle_cost_ns"),
  };
  return specs;
}

// Values that must be positive for the cost model to be well defined.
Status CheckPositive(const SocProfile& p, std::string_view origin) {
  const std::pair<const char*, uint64_t> required[] = {
      {"aicore_num", p.props.aicore_num},
      {"clock_hz", p.props.clock_hz},
      {"hbm_bytes", p.props.hbm_bytes},
      {"max_streams", p.props.max_streams},
      {"max_events", p.props.max_events},
      {"cube_flops_per_cycle_per_core", p.cost.cube_flops_per_cycle_per_core},
      {"vector_flops_per_cycle_per_core", p.cost.vector_flops_per_cycle_per_core},
      {"aicpu_flops_per_s_per_core", p.cost.aicpu_flops_per_s_per_core},
      {"hbm_bytes_per_s", p.cost.hbm_bytes_per_s},
      {"pcie_h2d_bytes_per_s", p.cost.pcie_h2d_bytes_per_s},
      {"pcie_d2h_bytes_per_s", p.cost.pcie_d2h_bytes_per_s},
      {"peer_bytes_per_s", p.cost.peer_bytes_per_s},
      {"host_memcpy_bytes_per_s", p.cost.host_memcpy_bytes_per_s},
      {"dma_h2d_channels", p.cost.dma_h2d_channels},
      {"dma_d2h_channels", p.cost.dma_d2h_channels},
      {"dma_d2d_channels", p.cost.dma_d2d_channels},
      {"dma_peer_channels", p.cost.dma_peer_channels},
      {"gm_read_bytes_per_cycle", p.cost.gm_read_bytes_per_cycle},
      {"gm_write_bytes_per_cycle", p.cost.gm_write_bytes_per_cycle},
      {"l2_read_bytes_per_cycle", p.cost.l2_read_bytes_per_cycle},
      {"l1_to_l0a_bytes_per_cycle", p.cost.l1_to_l0a_bytes_per_cycle},
      {"l1_to_l0b_bytes_per_cycle", p.cost.l1_to_l0b_bytes_per_cycle},
      {"l0c_out_bytes_per_cycle", p.cost.l0c_out_bytes_per_cycle},
      {"ub_bytes_per_cycle", p.cost.ub_bytes_per_cycle},
      {"cube_int8_flops_per_cycle_per_core", p.cost.cube_int8_flops_per_cycle_per_core},
      {"vector_repeat_bytes", p.cost.vector_repeat_bytes},
      {"scalar_ops_per_cycle", p.cost.scalar_ops_per_cycle},
      {"tlb_access_bytes", p.cost.tlb_access_bytes},
      {"tlb_entry_span_bytes", p.cost.tlb_entry_span_bytes},
      {"tlb_entries_4k", p.cost.tlb_entries_4k},
      {"tlb_entries_2m", p.cost.tlb_entries_2m},
      {"tlb_entries_1g", p.cost.tlb_entries_1g},
  };
  for (const auto& [name, value] : required) {
    if (value == 0) {
      return Err(StatusCode::kInternal, "SoC profile {}: field '{}' must be positive", origin,
                 name);
    }
  }
  return Status::Ok();
}

struct Registry {
  Status status;
  std::vector<SocProfile> profiles;  // sorted by name
};

const Registry& Profiles() {
  static const Registry registry = [] {
    Registry r;
    for (size_t i = 0; i < internal::kEmbeddedProfileCount; ++i) {
      const auto& file = internal::kEmbeddedProfiles[i];
      Result<SocProfile> parsed = ParseSocProfile(file.json_text, file.file_name);
      if (!parsed.ok()) {
        if (r.status.ok()) r.status = parsed.status();
        continue;
      }
      r.profiles.push_back(std::move(parsed.value()));
    }
    std::sort(r.profiles.begin(), r.profiles.end(),
              [](const SocProfile& a, const SocProfile& b) { return a.name < b.name; });
    for (size_t i = 1; i < r.profiles.size(); ++i) {
      if (r.profiles[i].name == r.profiles[i - 1].name && r.status.ok()) {
        r.status =
            Err(StatusCode::kInternal, "SoC profile {} is defined twice", r.profiles[i].name);
      }
    }
    return r;
  }();
  return registry;
}

}  // namespace

const std::vector<std::string>& SocProfileFieldNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& spec : Specs()) n.emplace_back(spec.name);
    return n;
  }();
  return names;
}

Result<SocProfile> ParseSocProfile(std::string_view json_text, std::string_view origin) {
  Json doc = Json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Err(StatusCode::kInternal, "SoC profile {}: not a JSON object", origin);
  }
  const auto name = doc.find("soc_name");
  const auto summary = doc.find("summary");
  const auto fields = doc.find("fields");
  if (name == doc.end() || !name->is_string() || name->get<std::string>().empty()) {
    return Err(StatusCode::kInternal, "SoC profile {}: missing string 'soc_name'", origin);
  }
  if (fields == doc.end() || !fields->is_object()) {
    return Err(StatusCode::kInternal, "SoC profile {}: missing object 'fields'", origin);
  }
  SocProfile profile;
  profile.name = name->get<std::string>();
  profile.props.soc_name = profile.name;
  if (summary != doc.end() && summary->is_string()) profile.summary = summary->get<std::string>();

  std::map<std::string, const FieldSpec*> specs;
  for (const auto& spec : Specs()) specs[spec.name] = &spec;
  for (const auto& [key, entry] : fields->items()) {
    auto spec = specs.find(key);
    if (spec == specs.end()) {
      return Err(StatusCode::kInternal, "SoC profile {}: unknown field '{}'", origin, key);
    }
    const auto value = entry.find("value");
    const auto source = entry.find("source");
    const auto confidence = entry.find("confidence");
    if (!entry.is_object() || value == entry.end() || !value->is_number_unsigned()) {
      return Err(StatusCode::kInternal,
                 "SoC profile {}: field '{}' needs a non-negative integer 'value'", origin, key);
    }
    if (source == entry.end() || !source->is_string() || source->get<std::string>().empty()) {
      return Err(StatusCode::kInternal, "SoC profile {}: field '{}' needs a 'source'", origin, key);
    }
    std::string conf = confidence != entry.end() && confidence->is_string()
                           ? confidence->get<std::string>()
                           : std::string();
    if (conf != "H" && conf != "M" && conf != "L") {
      return Err(StatusCode::kInternal,
                 "SoC profile {}: field '{}' needs a 'confidence' of H, M or L", origin, key);
    }
    const uint64_t v = value->get<uint64_t>();
    if (v > spec->second->max) {
      return Err(StatusCode::kInternal, "SoC profile {}: field '{}' = {} is out of range", origin,
                 key, v);
    }
    spec->second->store(profile, v);
    profile.fields.push_back({key, v, source->get<std::string>(), conf});
    specs.erase(spec);
  }
  if (!specs.empty()) {
    return Err(StatusCode::kInternal, "SoC profile {}: missing field '{}'", origin,
               specs.begin()->first);
  }
  ACLSIM_RETURN_IF_ERROR(CheckPositive(profile, origin));
  if (profile.cost.dma_hbm_contention_permille >= 1000) {
    return Err(StatusCode::kInternal,
               "SoC profile {}: dma_hbm_contention_permille must be below 1000", origin);
  }
  return profile;
}

const SocProfile* FindSocProfile(std::string_view name) {
  for (const auto& profile : Profiles().profiles) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

std::vector<std::string> SocNames() {
  std::vector<std::string> names;
  for (const auto& profile : Profiles().profiles) names.push_back(profile.name);
  return names;
}

Status SocProfileLoadStatus() { return Profiles().status; }

}  // namespace aclsim::sim
