//===- PassTable.h - the pass table as data ----------------------*- C++ -*-===//
//
// Internal (not installed). PassTable.def as an array and an enum, for the
// plugin (names only, before any MLIR registry exists), the registration and
// the C API.
//
//===----------------------------------------------------------------------===//
#ifndef OPSCHED_CXX_PASSTABLE_H
#define OPSCHED_CXX_PASSTABLE_H

#include "mlir/Pass/Pass.h"

#include <cstddef>
#include <memory>

namespace opsched {

/// One entry per pass of PassTable.def, in its order.
enum class PassId : unsigned {
#define OPSCHED_PASS(Class, argument, factory) Class,
#include "PassTable.def"
};

struct PassInfo {
  const char *name;     // the class name, Pass::getName()
  const char *argument; // the flag / pipeline name
  std::unique_ptr<mlir::Pass> (*create)();
};

/// The table; `count` receives its length.
const PassInfo *passTable(size_t *count);

inline const PassInfo &passInfo(PassId id) {
  size_t count;
  return passTable(&count)[static_cast<unsigned>(id)];
}
inline llvm::StringRef passName(PassId id) { return passInfo(id).name; }
inline llvm::StringRef passArgument(PassId id) { return passInfo(id).argument; }

/// The entry whose argument is `argument`, or null.
const PassInfo *findPass(llvm::StringRef argument);

} // namespace opsched

#endif // OPSCHED_CXX_PASSTABLE_H
