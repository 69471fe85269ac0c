// The `main` of a command-line tool: runs its body and catches every exception, so a tool never
// aborts on an uncaught one (a corrupt input, memory exhaustion, a bug) -- it prints
// "<tool>: <what went wrong>" on stderr and exits with `failure` instead.
//
//   int main(int argc, char** argv) {
//     return aclsim::GuardedMain("atc", 2, [&] { return Run(argc, argv); });
//   }
//
// Thread-safety: for main only.
#pragma once

#include <cstdio>
#include <exception>
#include <new>

namespace aclsim {

template <typename Body>
int GuardedMain(const char* tool, int failure, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory\n", tool);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", tool, e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: internal error (unknown exception)\n", tool);
  }
  return failure;
}

}  // namespace aclsim
