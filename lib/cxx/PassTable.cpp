//===- PassTable.cpp - PassTable.def as data, and registration -------------===//

#include "PassTable.h"

#include "opsched/Passes.h"

#include "mlir/Pass/PassRegistry.h"

#include <mutex>

using namespace mlir;

namespace {
const opsched::PassInfo kPasses[] = {
#define OPSCHED_PASS(Class, argument, factory) {#Class, argument, &opsched::factory},
#include "PassTable.def"
};
} // namespace

const opsched::PassInfo *opsched::passTable(size_t *count) {
  *count = sizeof kPasses / sizeof kPasses[0];
  return kPasses;
}

const opsched::PassInfo *opsched::findPass(llvm::StringRef argument) {
  for (const PassInfo &p : kPasses)
    if (argument == p.argument)
      return &p;
  return nullptr;
}

void opsched::registerPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const PassInfo &p : kPasses)
      mlir::registerPass(p.create);
  });
}
