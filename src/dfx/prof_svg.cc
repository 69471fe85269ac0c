// timeline_<ts>.svg: the device lanes of msprof_<ts>.json drawn on one time axis, so that
// copy/compute overlap and waiting show at a glance. Self-contained SVG 1.1.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dfx/prof_format.h"
#include "dfx/prof_lanes.h"
#include "dfx/prof_outputs.h"

namespace aclsim::dfx::prof::detail {
namespace {

constexpr double kWidth = 1600;
constexpr double kLabelWidth = 170;  // lane names on the left
constexpr double kRightMargin = 20;
constexpr double kPlotWidth = kWidth - kLabelWidth - kRightMargin;
constexpr double kLaneHeight = 22;
constexpr double kLaneGap = 4;
constexpr double kCharWidth = 6.5;  // of the 11px label font, roughly

struct Swatch {
  const char* colour;
  const char* meaning;
};
constexpr Swatch kLegend[] = {
    {"#1f77b4", "copy (MEMCPY, MEMCPY2D)"}, {"#6baed6", "memset"},
    {"#e6550d", "kernel on AI Core"},       {"#fdae6b", "kernel on AI Vector"},
    {"#a63603", "kernel on AI CPU"},        {"#756bb1", "event record / wait / reset"},
    {"#31a354", "host function"},           {"#969696", "other"},
};

const char* ColourOf(const TaskRecord& task) {
  if (task.kind == "MEMSET") return kLegend[1].colour;
  if (IsCopy(task)) return kLegend[0].colour;
  if (IsKernel(task)) {
    if (task.engine == "AI_VECTOR") return kLegend[3].colour;
    if (task.engine == "AI_CPU") return kLegend[4].colour;
    return kLegend[2].colour;
  }
  if (IsEventTask(task)) return kLegend[5].colour;
  if (task.kind == "HOST_FUNC") return kLegend[6].colour;
  return kLegend[7].colour;
}

// Axis ticks: a 1-2-5 step giving about ten ticks over `span` ns.
uint64_t TickStep(uint64_t span) {
  const double raw = static_cast<double>(span) / 10.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * magnitude >= raw)
      return std::max<uint64_t>(1, static_cast<uint64_t>(factor * magnitude));
  }
  return static_cast<uint64_t>(10 * magnitude);
}

std::string TickLabel(uint64_t ns, uint64_t step) {
  if (step >= 1000000) return fmt::format("{:g} ms", static_cast<double>(ns) / 1e6);
  return fmt::format("{:g} us", static_cast<double>(ns) / 1e3);
}

class Picture {
 public:
  Picture(uint64_t t0, uint64_t span) : t0_(t0), span_(std::max<uint64_t>(span, 1)) {}
  double X(uint64_t ns) const {
    const uint64_t t = ns > t0_ ? ns - t0_ : 0;
    return kLabelWidth + static_cast<double>(t) * kPlotWidth / static_cast<double>(span_);
  }
  void Rect(const char* cls, double x, double y, double w, double h, const std::string& fill,
            const std::string& title, bool failed) {
    body_ += fmt::format(
        "<rect class=\"{}\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" "
        "fill=\"{}\"{}><title>{}</title></rect>\n",
        cls, x, y, std::max(w, 1.0), h, fill,
        failed ? " stroke=\"#d62728\" stroke-width=\"2\"" : "", XmlEscape(title));
  }
  void Text(double x, double y, const std::string& text, const char* extra = "") {
    body_ +=
        fmt::format("<text x=\"{:.2f}\" y=\"{:.1f}\"{}>{}</text>\n", x, y, extra, XmlEscape(text));
  }
  void Raw(const std::string& text) { body_ += text; }
  const std::string& body() const { return body_; }
  uint64_t t0() const { return t0_; }
  uint64_t span() const { return span_; }

 private:
  uint64_t t0_;
  uint64_t span_;
  std::string body_;
};

std::string TaskTitle(const TaskRecord& task) {
  return fmt::format("{} {} (task {}, {}, {}) start {} us, {} us, waited {} us", task.kind,
                     task.op_name, task.task_id, task.op_type, task.engine, Us(task.start_ns),
                     Us(DurNs(task)), Us(WaitNs(task)));
}

void DrawLane(const Trace& trace, const Lane& lane, double y, Picture& pic) {
  pic.Text(8, y + 15, lane.label);
  const char* cls = lane.is_engine ? "engine" : "task";
  for (size_t index : lane.tasks) {
    const TaskRecord& task = trace.tasks[index];
    if (!lane.is_engine && WaitNs(task) > 0) {
      pic.Rect("wait", pic.X(task.ready_ns), y + 3, pic.X(task.start_ns) - pic.X(task.ready_ns),
               kLaneHeight - 6, "url(#waiting)",
               fmt::format("waiting {} us for task {} ({})", Us(WaitNs(task)), task.task_id,
                           task.op_name),
               false);
    }
    if (IsEventTask(task)) continue;
    const double x = pic.X(task.start_ns);
    const double w = pic.X(task.end_ns) - x;
    pic.Rect(cls, x, y, w, kLaneHeight, ColourOf(task), TaskTitle(task), task.failed);
    const std::string& label = task.op_type.empty() ? task.kind : task.op_type;
    if (w >= kCharWidth * static_cast<double>(label.size()) + 6) {
      pic.Text(x + 3, y + 15, label, " class=\"label\"");
    }
  }
  // Event records and waits take no time: thin marks drawn over the slices around them.
  for (size_t index : lane.tasks) {
    const TaskRecord& task = trace.tasks[index];
    if (!IsEventTask(task)) continue;
    pic.Rect(cls, pic.X(task.start_ns) - 1.5, y - 2, 3, kLaneHeight + 4, ColourOf(task),
             TaskTitle(task) + fmt::format(", event {}", task.event_id), task.failed);
  }
}

}  // namespace

std::string TimelineSvg(const Trace& trace) {
  uint64_t first = UINT64_MAX;
  uint64_t last = 0;
  for (const TaskRecord& task : trace.tasks) {
    first = std::min(first, std::min(task.ready_ns, task.start_ns));
    last = std::max(last, task.end_ns);
  }
  if (trace.tasks.empty()) first = 0;
  Picture pic(first, last > first ? last - first : 1);

  const std::vector<Lane> lanes = BuildLanes(trace);
  double y = 64;
  int64_t device = -1;
  for (const Lane& lane : lanes) {
    if (static_cast<int64_t>(lane.device_id) != device) {
      device = lane.device_id;
      pic.Text(8, y + 14, fmt::format("NPU {}", device), " font-weight=\"bold\"");
      y += 20;
    }
    pic.Raw(
        fmt::format("<rect class=\"lane\" x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" "
                    "fill=\"#f4f4f4\"/>\n",
                    kLabelWidth, y, kPlotWidth, kLaneHeight));
    DrawLane(trace, lane, y, pic);
    y += kLaneHeight + kLaneGap;
  }
  const double lanes_bottom = y;

  // Time axis on top with grid lines through every lane.
  std::string axis =
      fmt::format("<line x1=\"{}\" y1=\"50\" x2=\"{}\" y2=\"50\" stroke=\"#333\"/>\n", kLabelWidth,
                  kLabelWidth + kPlotWidth);
  const uint64_t step = TickStep(pic.span());
  for (uint64_t t = 0; t <= pic.span(); t += step) {
    const double x = pic.X(pic.t0() + t);
    axis += fmt::format(
        "<line x1=\"{0:.2f}\" y1=\"46\" x2=\"{0:.2f}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{0:.2f}\" y=\"42\" text-anchor=\"middle\">{2}</text>\n",
        x, lanes_bottom, TickLabel(t, step));
  }
  axis += fmt::format("<text x=\"8\" y=\"42\">t0 = {} us</text>\n", Us(pic.t0()));

  // Legend below the lanes.
  std::string legend;
  double lx = kLabelWidth;
  const double ly = lanes_bottom + 16;
  const Swatch wait{"url(#waiting)", "waiting (ready to start)"};
  std::vector<Swatch> swatches(std::begin(kLegend), std::end(kLegend));
  swatches.push_back(wait);
  for (const Swatch& swatch : swatches) {
    legend += fmt::format(
        "<rect x=\"{0:.1f}\" y=\"{1:.1f}\" width=\"14\" height=\"14\" fill=\"{2}\"/>\n"
        "<text x=\"{3:.1f}\" y=\"{4:.1f}\">{5}</text>\n",
        lx, ly, swatch.colour, lx + 18, ly + 11, XmlEscape(swatch.meaning));
    lx += 40 + kCharWidth * static_cast<double>(std::string(swatch.meaning).size());
  }
  const double height = ly + 30;

  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0} {1:.0f}\" font-family=\"sans-serif\" font-size=\"11\">\n",
      kWidth, height);
  svg +=
      "<defs><pattern id=\"waiting\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e0e0e0\"/>"
      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888\" stroke-width=\"2\"/></pattern>"
      "<style>.label{fill:#fff;pointer-events:none}</style></defs>\n";
  svg += fmt::format(
      "<text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
      XmlEscape(fmt::format(
          "aclsim timeline: {} tasks, {} us{}", trace.tasks.size(), Us(pic.span()),
          trace.info.soc_version.empty() ? std::string() : ", " + trace.info.soc_version)));
  svg += axis + pic.body() + legend + "</svg>\n";
  return svg;
}

}  // namespace aclsim::dfx::prof::detail
