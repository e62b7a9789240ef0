//===- Plugin.cpp - the mlir-opt plugin entry ------------------------------===//
//
// Stock mlir-opt builds its pass-flag parser before --load-pass-plugin runs,
// so `--op-schedule` alone is an "Unknown command line argument"
// (llvm-project #78020); only --pass-pipeline works. To make the flag form
// work, the plugin's registration callback looks for its own flags (or
// --help) in /proc/self/cmdline and, if found, re-executes the same binary
// with the same arguments and the plugin in LD_PRELOAD. In that second
// process the constructor below registers the passes before main() builds
// the parser. Loops are impossible: the re-executed process carries a marker
// the constructor consumes, and it never re-executes again. The child's
// environment is restored (LD_PRELOAD as before, marker removed) so tools it
// starts see the user's environment. The re-execution also gives glibc's
// malloc transparent huge pages (lib/core/malloc_env.h), and happens for
// that alone on an input of 2 MiB or more, as opsched-opt does (the
// --pass-pipeline form); GLIBC_TUNABLES is restored the same way.
//
//===----------------------------------------------------------------------===//

#include "opsched/Passes.h"

#include "PassTable.h"
#include "opsched/Version.h"

extern "C" {
#include "../core/malloc_env.h"
}

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm-c/Core.h"
#include "llvm/Config/llvm-config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *kMarker = "OPSCHED_PLUGIN_REEXEC";
constexpr const char *kSavedPreload = "OPSCHED_PLUGIN_SAVED_LD_PRELOAD";

// Set once by the constructor, before main(); read-only afterwards.
bool preloaded = false;

/// The arguments of this process, from /proc/self/cmdline.
std::vector<std::string> readCmdline() {
  std::vector<std::string> args;
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return args;
  std::string all;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      all.append(buf, static_cast<size_t>(n));
  close(fd);
  size_t start = 0;
  for (size_t i = 0; i < all.size(); i++)
    if (all[i] == '\0') {
      args.push_back(all.substr(start, i - start));
      start = i + 1;
    }
  return args;
}

/// True for an argument the stock parser cannot know yet: one of our pass
/// flags, or a help flag that should list our passes.
bool needsPreload(const std::string &arg) {
  if (arg == "--") // end of options
    return false;
  const char *a = arg.c_str();
  if (a[0] != '-')
    return false;
  a += a[1] == '-' ? 2 : 1;
  std::string name(a, strcspn(a, "="));
  if (name == "help" || name == "help-hidden" || name == "help-list" ||
      name == "help-list-hidden")
    return true;
  return opsched::findPass(name) != nullptr;
}

/// Path of this shared object, absolute.
std::string selfPath() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&readCmdline), &info) || !info.dli_fname)
    return {};
  char *real = realpath(info.dli_fname, nullptr);
  if (!real)
    return {};
  std::string path(real);
  free(real);
  return path;
}

/// The argument's option name: "--load-pass-plugin=x" -> "load-pass-plugin".
std::string optionName(const std::string &arg) {
  const char *a = arg.c_str();
  if (a[0] != '-')
    return {};
  a += a[1] == '-' ? 2 : 1;
  return std::string(a, strcspn(a, "="));
}

/// A pass flag before --load-pass-plugin has already been rejected by
/// mlir-opt's parser ("Unknown command line argument"), which would then
/// run without it and exit 0: stop with the fix instead.
void refusePassFlagBeforePlugin(const std::vector<std::string> &args) {
  for (size_t i = 1; i < args.size() && args[i] != "--"; i++) {
    std::string name = optionName(args[i]);
    if (name == "load-pass-plugin")
      return;
    if (name.empty() || !opsched::findPass(name))
      continue;
    fprintf(stderr,
            "opsched: '%s' comes before --load-pass-plugin: mlir-opt parses pass flags "
            "before it loads plugins, so the pass would not run. Put "
            "--load-pass-plugin=<libopsched.so> first.\n",
            args[i].c_str());
    fflush(nullptr);
    _exit(1);
  }
}

void reexecWithPreload() {
  std::vector<std::string> args = readCmdline();
  refusePassFlagBeforePlugin(args);
  bool wanted = false, fromFlag = false;
  for (size_t i = 1; i < args.size(); i++) {
    if (args[i] == "--")
      break;
    wanted |= needsPreload(args[i]);
    fromFlag |= optionName(args[i]) == "load-pass-plugin";
  }
  std::string self = selfPath();
  if (self.empty() || getenv(kMarker))
    return;
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  // A large input is worth a new start for malloc in huge pages alone (the
  // --pass-pipeline form), when the plugin comes from mlir-opt's own
  // --load-pass-plugin (its options are being parsed: nothing has run yet);
  // with a pass flag the start is paid for anyway.
  bool big = fromFlag && opsched_malloc_env_input_bytes(static_cast<int>(args.size()),
                                                        argv.data()) >=
                             OPSCHED_MALLOC_ENV_MIN_INPUT;
  bool tuned = (wanted || big) && opsched_malloc_env_prepare();
  if (!wanted && !tuned)
    return;
  const char *old = getenv("LD_PRELOAD");
  std::string preload = self;
  if (old && *old) {
    preload += ":";
    preload += old;
    setenv(kSavedPreload, old, 1);
  } else {
    unsetenv(kSavedPreload);
  }
  setenv("LD_PRELOAD", preload.c_str(), 1);
  setenv(kMarker, "1", 1);
  fflush(nullptr);
  execv("/proc/self/exe", argv.data());
  // exec failed: undo, and let mlir-opt report the unknown flag as usual.
  opsched_malloc_env_restore();
  unsetenv(kMarker);
  if (old)
    setenv("LD_PRELOAD", old, 1);
  else
    unsetenv("LD_PRELOAD");
}

__attribute__((constructor)) void registerWhenPreloaded() {
  if (!getenv(kMarker))
    return;
  preloaded = true;
  // Restore the user's environment for anything this process starts.
  opsched_malloc_env_restore();
  unsetenv(kMarker);
  if (const char *saved = getenv(kSavedPreload)) {
    setenv("LD_PRELOAD", saved, 1);
    unsetenv(kSavedPreload);
  } else {
    unsetenv("LD_PRELOAD");
  }
  opsched::registerPasses();
}

/// Empty when the MLIR of this process is the one the plugin was built
/// against (same libMLIR SONAME, same LLVM major.minor); otherwise why not.
/// A different MLIR would mean two copies in one process, whose TypeIDs and
/// option registries disagree: better to refuse than to misbehave.
std::string mlirVersionMismatch() {
  std::vector<std::string> loaded; // basenames of every libMLIR.so* mapped
  dl_iterate_phdr(
      [](struct dl_phdr_info *info, size_t, void *data) {
        const char *name = info->dlpi_name ? info->dlpi_name : "";
        const char *base = strrchr(name, '/');
        base = base ? base + 1 : name;
        if (strncmp(base, "libMLIR.so", 10) == 0)
          static_cast<std::vector<std::string> *>(data)->push_back(base);
        return 0;
      },
      &loaded);
  std::string found;
  for (const std::string &l : loaded)
    if (l != OPSCHED_MLIR_SONAME)
      found = l;
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  if (found.empty() && major == OPSCHED_MLIR_VERSION_MAJOR &&
      minor == OPSCHED_MLIR_VERSION_MINOR)
    return {};
  if (found.empty())
    found = "LLVM " + std::to_string(major) + "." + std::to_string(minor) + "." +
            std::to_string(patch);
  return std::string("opsched " OPSCHED_VERSION_STRING
                     ": this plugin was built against MLIR " OPSCHED_MLIR_VERSION_STRING
                     " (" OPSCHED_MLIR_SONAME ") but is loaded into ") +
         found + "; its passes are not registered. Rebuild opsched against the MLIR of this tool.";
}

void registerPassRegistryCallbacks() {
  std::string mismatch = mlirVersionMismatch();
  if (!mismatch.empty()) {
    fprintf(stderr, "%s\n", mismatch.c_str());
    return;
  }
  if (!preloaded)
    reexecWithPreload();
  opsched::registerPasses();
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default")))
::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "opsched", LLVM_VERSION_STRING,
          registerPassRegistryCallbacks};
}
