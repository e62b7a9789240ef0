//===- facts.cpp - the checker's questions to MLIR, callable from C -------===//
//
// Private to lib/verify (facts.h). Effects come from getEffectsRecursively
// (libMLIR does the interface casts, so the g++ TypeID trap cannot hide an
// effect); resources and view ops are recognised by name, not by TypeID.
//
//===----------------------------------------------------------------------===//

#include "facts.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallString.h"

#include <algorithm>
#include <cstring>

using namespace mlir;

namespace {

template <size_t N> bool nameIn(Operation *op, const char *const (&names)[N]) {
  StringRef name = op->getName().getStringRef();
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

// Ops whose result is a view of (aliases) their first operand.
const char *const kViews[] = {
    "memref.subview",         "memref.view",           "memref.cast",
    "memref.reinterpret_cast", "memref.expand_shape",  "memref.collapse_shape",
    "memref.transpose",       "memref.memory_space_cast", "memref.assume_alignment",
    "memref.reshape",         "tensor.cast",           "tensor.extract_slice",
    "tensor.expand_shape",    "tensor.collapse_shape", "tensor.reshape",
    "tensor.bitcast",         "bufferization.to_tensor", "bufferization.to_buffer"};

// Ops that may not return (exit, trap, abort) besides unknown effects.
const char *const kMayNotReturn[] = {"func.call",      "func.call_indirect", "llvm.call",
                                     "cf.assert",      "llvm.intr.trap",     "llvm.intr.ubsantrap",
                                     "llvm.unreachable"};

const char *const kFunctions[] = {"func.func", "llvm.func", "gpu.func"};

const char *const kStackScope[] = {"llvm.intr.stacksave", "llvm.intr.stackrestore"};

bool isView(Operation *op) { return nameIn(op, kViews); }

bool isAllocation(Value root);
bool escapes(Value root);

Value rootOf(Value v) {
  for (int guard = 0; guard < 4096; ++guard) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumOperands() == 0 || !isView(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

// A use that keeps an allocation inside the function's known accesses: a
// view of it (whose uses count too), or an op that reads, writes or frees
// it, returns no buffer and passes none into a region.
bool useKeepsLocal(Operation *user, Value v, SmallVectorImpl<Value> &views) {
  if (isView(user) && user->getOperand(0) == v) {
    for (Value r : user->getResults())
      views.push_back(r);
    return true;
  }
  for (Value r : user->getResults())
    if (isa<BaseMemRefType>(r.getType()))
      return false;
  for (Region &region : user->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (isa<BaseMemRefType>(arg.getType()))
          return false;
  auto effects = getEffectsRecursively(user);
  return effects && llvm::any_of(*effects, [&](const MemoryEffects::EffectInstance &e) {
           return !isa<MemoryEffects::Allocate>(e.getEffect()) && e.getValue() == v;
         });
}

// An allocation escapes when a use of it or of a view of it may keep a
// reference (stored, passed to a call, returned, yielded, made a tensor).
bool escapes(Value root) {
  SmallVector<Value, 8> views{root};
  for (size_t i = 0; i < views.size(); ++i) {
    if (i > (1u << 16))
      return true;
    Value v = views[i];
    for (OpOperand &use : v.getUses())
      if (!useKeepsLocal(use.getOwner(), v, views))
        return true;
  }
  return false;
}

// OPSCHED_VFX_ALLOCATION / LOCAL: the root's defining op allocates it (LOCAL
// when it does not escape).
// OPSCHED_VFX_ARGUMENT: an argument of the function (the entry block of a
// function's body): it exists before any allocation the function makes.
// OPSCHED_VFX_GLOBAL: memref.get_global, static storage.
// Anything else (results of calls, scf.if, selects, loop-carried block
// arguments) may be any buffer, an escaped allocation of this block included.
int32_t originOf(Value root) {
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    Block *owner = arg.getOwner();
    Operation *parent = owner->getParentOp();
    if (parent && owner->isEntryBlock() && nameIn(parent, kFunctions))
      return OPSCHED_VFX_ARGUMENT;
    return OPSCHED_VFX_ANY;
  }
  if (root.getDefiningOp() && root.getDefiningOp()->getName().getStringRef() == "memref.get_global")
    return OPSCHED_VFX_GLOBAL;
  if (!isAllocation(root))
    return OPSCHED_VFX_ANY;
  return escapes(root) ? OPSCHED_VFX_ALLOCATION : OPSCHED_VFX_LOCAL;
}

bool isAllocation(Value root) {
  Operation *def = root.getDefiningOp();
  if (!def)
    return false;
  auto effects = getEffectsRecursively(def);
  if (!effects)
    return false;
  for (const MemoryEffects::EffectInstance &e : *effects)
    if (isa<MemoryEffects::Allocate>(e.getEffect()) && e.getValue() == root)
      return true;
  return false;
}

// Resources by name (FNV-1a): the same resource in every TU and library.
uintptr_t resourceId(StringRef name) {
  uint64_t h = 1469598103934665603ULL;
  for (char ch : name)
    h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
  return static_cast<uintptr_t>(h | 1);
}

// An allocation on the stack inside a nested memref.alloca_scope is freed
// when that scope ends: it does not allocate on the op's own scope.
bool scopedInside(Value v, Operation *top) {
  for (Operation *p = v.getParentRegion() ? v.getParentRegion()->getParentOp() : nullptr;
       p && p != top; p = p->getParentOp())
    if (p->getName().getStringRef() == "memref.alloca_scope")
      return true;
  return false;
}

struct Sink {
  opsched_vfx *out;
  int64_t cap, n = 0;
  void add(uintptr_t resource, Value value, opsched_vfx_kind kind) {
    opsched_vfx fx{resource, 0, kind, OPSCHED_VFX_ANY};
    if (value) {
      Value root = rootOf(value);
      fx.root = reinterpret_cast<uintptr_t>(root.getAsOpaquePointer());
      fx.origin = originOf(root);
    }
    if (n < cap)
      out[n] = fx;
    n++;
  }
};

void addEffects(Operation *top, Sink &sink, opsched_vfacts *facts) {
  auto effects = getEffectsRecursively(top);
  if (!effects) {
    facts->unknown = 1;
    return;
  }
  uintptr_t stack = resourceId("AutomaticAllocationScope");
  for (const MemoryEffects::EffectInstance &e : *effects) {
    uintptr_t res = resourceId(e.getResource()->getName());
    Value v = e.getValue();
    opsched_vfx_kind kind = OPSCHED_VFX_WRITE;
    if (isa<MemoryEffects::Read>(e.getEffect()))
      kind = OPSCHED_VFX_READ;
    else if (isa<MemoryEffects::Free>(e.getEffect()))
      kind = OPSCHED_VFX_FREE;
    else if (isa<MemoryEffects::Allocate>(e.getEffect()))
      kind = OPSCHED_VFX_ALLOC;
    if (res == stack) {
      if (kind != OPSCHED_VFX_ALLOC)
        facts->stack_scope = 1;
      else if (!v || !scopedInside(v, top))
        facts->stack_alloc = 1;
    }
    sink.add(res, v, kind);
  }
}

} // namespace

int64_t opschedVerifyOpFacts(MlirOperation op, opsched_vfx *out, int64_t cap,
                             opsched_vfacts *facts) {
  Operation *top = unwrap(op);
  *facts = opsched_vfacts{0, 0, 0, 0, 0};
  Sink sink{out, cap};
  addEffects(top, sink, facts);
  facts->speculatable = isSpeculatable(top) ? 1 : 0;
  uintptr_t memory = resourceId("<Default>");
  top->walk([&](Operation *nested) {
    if (nameIn(nested, kMayNotReturn))
      facts->may_not_return = 1;
    if (nameIn(nested, kStackScope))
      facts->stack_scope = 1;
    // A tensor that is a view of a memref (to_tensor) is read from that
    // memref's memory by whoever reads the tensor.
    for (Value v : nested->getOperands()) {
      if (!isa<TensorType>(v.getType()))
        continue;
      Value root = rootOf(v);
      if (isa<BaseMemRefType>(root.getType()))
        sink.add(memory, v, OPSCHED_VFX_READ);
    }
  });
  if (facts->unknown)
    facts->may_not_return = 1;
  return sink.n;
}

int opschedVerifyIntAttr(MlirAttribute a, int64_t *out, char *text, int n) {
  auto ia = dyn_cast<IntegerAttr>(unwrap(a));
  if (!ia)
    return 0;
  const APInt &v = ia.getValue();
  bool isUnsigned = ia.getType().isUnsignedInteger();
  if (isUnsigned ? v.getActiveBits() <= 63 : v.getSignificantBits() <= 64) {
    *out = isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue();
    return 1;
  }
  llvm::SmallString<48> s;
  v.toString(s, 10, !isUnsigned);
  if (n > 0) {
    size_t len = std::min(s.size(), static_cast<size_t>(n - 1));
    std::memcpy(text, s.data(), len);
    text[len] = '\0';
  }
  return 0;
}

void opschedVerifyEmit(MlirLocation loc, const char *message, MlirLocation noteLoc,
                       const char *note) {
  InFlightDiagnostic d = emitError(unwrap(loc)) << message;
  if (!mlirLocationIsNull(noteLoc))
    d.attachNote(unwrap(noteLoc)) << note;
}
