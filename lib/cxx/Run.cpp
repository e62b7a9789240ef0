//===- Run.cpp - running the C driver on functions, and the output files ---===//
//
// Shared by the pass classes (Passes.cpp) and the C API's direct entry
// (lib/capi), so both open, probe, schedule and write the same way.
//
//===----------------------------------------------------------------------===//

#include "PassConfig.h"

#include "opsched/report.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

using namespace mlir;
using namespace opsched::detail;

namespace {

/// A FILE that collects one function's output text in memory.
struct MemoryStream {
  char *data = nullptr;
  size_t size = 0;
  FILE *file = nullptr;
  explicit MemoryStream(bool wanted) {
    if (wanted)
      file = open_memstream(&data, &size);
  }
  ~MemoryStream() {
    if (file)
      fclose(file);
    free(data);
  }
  std::string take() {
    if (!file)
      return {};
    fflush(file);
    return std::string(data, size);
  }
};

/// Gives the pass's protected initialize() to code that holds a Pass&:
/// naming the member through a derived class is allowed, calling it is
/// virtual.
struct InitializeAccess : Pass {
  using InitFn = LogicalResult (Pass::*)(MLIRContext *);
  static InitFn get() { return &InitializeAccess::initialize; }
};

} // namespace

LogicalResult opsched::detail::initializePass(Pass &pass, MLIRContext *ctx) {
  return (pass.*InitializeAccess::get())(ctx);
}

void opsched::detail::runFunction(Operation *func, const PassConfig &config, size_t index,
                                  const PhaseHooks &hooks, FunctionRun &run) {
  MemoryStream dot(!config.dot.empty()), table(!config.table.empty()),
      summary(!config.summary.empty());
  int clusters = static_cast<int>(index) << 16;
  opsched_function_report *report = nullptr;
  opsched_run_outputs out;
  memset(&out, 0, sizeof out); // fields added later stay off
  out.reorder = config.reorders ? 1 : 0;
  out.slots_only = config.slotsOnly ? 1 : 0;
  out.dot = dot.file;
  out.table = table.file;
  out.summary = summary.file;
  out.cluster_counter = &clusters;
  out.report = (!config.trace.empty() || !config.report.empty()) ? &report : nullptr;
  out.figures = &run.figures;
  out.phase = hooks.callback;
  out.phase_user = hooks.user;
  run.figures.peak = run.figures.original_peak = run.figures.resident = -1;
  run.figures.arena = -1;
  MlirLogicalResult r = opsched_mlir_run_on_function(wrap(func), &config.options, &out);
  run.report.reset(report);
  run.dot = dot.take();
  run.table = table.take();
  run.summary = summary.take();
  run.succeeded = mlirLogicalResultIsSuccess(r);
}

OutputFiles::~OutputFiles() {
  for (File *f : {&dot, &table, &summary, &trace, &report})
    if (f->owned)
      fclose(f->file);
}

LogicalResult OutputFiles::openOne(File &f, StringRef option, const std::string &path,
                                   Operation *at, StringRef who) {
  f.option = option.str();
  f.path = path;
  if (path.empty())
    return success();
  if (path == "-") { // stdout is the IR's: dumps go to stderr, as upstream's do
    f.file = stderr;
    return success();
  }
  f.file = fopen(path.c_str(), "w");
  if (!f.file)
    return emitError(at->getLoc()) << who << ": cannot open '" << path << "' for writing ("
                           << option << "): " << strerror(errno);
  f.owned = true;
  // A device may accept the open and refuse every write (/dev/full): probe
  // it with one newline now rather than after the whole schedule.
  struct stat st;
  if (fstat(fileno(f.file), &st) == 0 && S_ISCHR(st.st_mode) &&
      (fputc('\n', f.file) == EOF || fflush(f.file) != 0))
    return emitError(at->getLoc()) << who << ": cannot write to '" << path << "' (" << option
                           << "): " << strerror(errno);
  return success();
}

LogicalResult OutputFiles::open(const PassConfig &config, Operation *at, StringRef who) {
  subtitle = config.subtitle;
  return success(succeeded(openOne(dot, "dot", config.dot, at, who)) &&
                 succeeded(openOne(table, "table", config.table, at, who)) &&
                 succeeded(openOne(summary, "summary", config.summary, at, who)) &&
                 succeeded(openOne(trace, "trace", config.trace, at, who)) &&
                 succeeded(openOne(report, "report", config.report, at, who)));
}

LogicalResult OutputFiles::finish(File &f, Operation *at, StringRef who) {
  if (!f.file)
    return success();
  errno = 0;
  bool bad = ferror(f.file) != 0;
  bad |= fflush(f.file) != 0;
  if (f.owned)
    bad |= fclose(f.file) != 0;
  int err = errno;
  f.file = nullptr;
  f.owned = false;
  if (bad)
    return emitError(at->getLoc()) << who << ": writing '" << f.path << "' (" << f.option
                           << ") failed: " << strerror(err ? err : EIO);
  return success();
}

LogicalResult OutputFiles::write(ArrayRef<const FunctionRun *> runs, Operation *at,
                                 StringRef who) {
  if (dot.file) {
    opsched_dot_begin(dot.file);
    for (const FunctionRun *r : runs)
      fwrite(r->dot.data(), 1, r->dot.size(), dot.file);
    opsched_dot_end(dot.file);
  }
  for (const FunctionRun *r : runs) {
    if (table.file)
      fwrite(r->table.data(), 1, r->table.size(), table.file);
    if (summary.file)
      fwrite(r->summary.data(), 1, r->summary.size(), summary.file);
  }
  bool bad = false;
  if (trace.file || report.file) {
    std::vector<opsched_function_report *> list;
    for (const FunctionRun *r : runs)
      list.push_back(r->report.get());
    if (trace.file && opsched_mlir_write_reports(list.data(), list.size(), subtitle.c_str(),
                                              trace.file, nullptr)) {
      emitError(at->getLoc()) << who << ": writing '" << trace.path << "' (trace) failed";
      bad = true;
    }
    if (report.file && opsched_mlir_write_reports(list.data(), list.size(), subtitle.c_str(),
                                               nullptr, report.file)) {
      emitError(at->getLoc()) << who << ": writing '" << report.path << "' (report) failed";
      bad = true;
    }
  }
  for (File *f : {&dot, &table, &summary, &trace, &report})
    bad |= failed(finish(*f, at, who));
  return failure(bad);
}
