// fmt's out-of-line part, compiled into aclsim's own libraries.
//
// Debian's libfmt-dev ships fmt only as a shared library (libfmt.so.9); an installed aclsim
// must not need it at run time (an install copied to a machine without the package still
// loads). fmt's headers declare its non-template functions (FMT_FUNC) and the templates below
// without defining them unless FMT_HEADER_ONLY is set; this file defines them once, so every
// other source keeps including <fmt/format.h> alone (a full header-only fmt in every
// translation unit would add its implementation to each of them). The symbols are hidden:
// FMT_API expands to nothing without FMT_SHARED, and the libraries' version script exports acl*
// names only.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

// The instantiations fmt's headers declare extern (or use without defining) for char.
template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> wchar_t;
template void buffer<char>::append(const char*, const char*);
template void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>,
                         locale_ref);

}  // namespace detail
FMT_END_NAMESPACE
