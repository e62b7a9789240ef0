//===- facts.cpp - the checker's questions to MLIR, callable from C -------===//
//
// Private to lib/verify (facts.h). Effects come from getEffectsRecursively
// (libMLIR does the trait checks, so the g++ TypeID trap cannot hide an
// effect), composed per op from the nested ops' answers once libMLIR has
// shown whether an op name recurses; resources and view ops are recognised
// by name, not by TypeID.
//
//===----------------------------------------------------------------------===//

#include "facts.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

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

// The value v is a view of, or null at a root.
Value viewSource(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() == 0 || !isView(def))
    return Value();
  return def->getOperand(0);
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

// One effect as the checker keeps it, with the value it is on (an
// allocation on the stack is judged against the asking op, scopedInside).
struct Fx {
  opsched_vfx fx;
  Value value;
};

// Roots and origins, each found once per value: a walk up a chain of
// views stops at the first value walked before, and whether an allocation
// escapes (a walk over all of its views) is asked once per allocation,
// not once per access (both quadratic on a chain of views).
struct RootMemo {
  llvm::DenseMap<const void *, Value> roots;       // value -> its root
  llvm::DenseMap<const void *, int32_t> origins;   // root -> originOf

  // The value v is derived from through views. A chain longer than 2^16
  // (only a graph region's cycle could make one endless) ends where the
  // walk stops, and is not remembered.
  Value rootOf(Value v) {
    SmallVector<Value, 16> path;
    Value root = v;
    for (;;) {
      auto it = roots.find(root.getAsOpaquePointer());
      if (it != roots.end()) {
        root = it->second;
        break;
      }
      if (path.size() > (1u << 16))
        return root;
      path.push_back(root);
      Value up = viewSource(root);
      if (!up)
        break;
      root = up;
    }
    for (Value p : path)
      roots[p.getAsOpaquePointer()] = root;
    return root;
  }

  int32_t originOfRoot(Value root) {
    auto [it, inserted] = origins.try_emplace(root.getAsOpaquePointer(), 0);
    if (inserted)
      it->second = originOf(root);
    return it->second;
  }
};

Fx makeFx(uintptr_t resource, Value value, opsched_vfx_kind kind, RootMemo &memo) {
  Fx f{{resource, 0, kind, OPSCHED_VFX_ANY}, value};
  if (value) {
    Value root = memo.rootOf(value);
    f.fx.root = reinterpret_cast<uintptr_t>(root.getAsOpaquePointer());
    f.fx.origin = memo.originOfRoot(root);
  }
  return f;
}

opsched_vfx_kind kindOf(const MemoryEffects::EffectInstance &e) {
  if (isa<MemoryEffects::Read>(e.getEffect()))
    return OPSCHED_VFX_READ;
  if (isa<MemoryEffects::Free>(e.getEffect()))
    return OPSCHED_VFX_FREE;
  if (isa<MemoryEffects::Allocate>(e.getEffect()))
    return OPSCHED_VFX_ALLOC;
  return OPSCHED_VFX_WRITE;
}

// Whether an op name has recursive memory effects, as libMLIR's
// getEffectsRecursively showed it (learned, not asked of a trait: the g++
// TypeID trap could hide one). Direct: libMLIR's answer matched neither
// composition (an interface cast here disagreeing with libMLIR's), so it is
// asked for every op of the name.
enum class Recursion : int8_t { Unknown, Yes, No, Direct };

} // namespace

// What an op and everything nested in it contribute, kept per op so that an
// op at depth d is not looked at again by each of its d ancestors: its
// effects are getEffectsRecursively's list (own effects, then each nested
// op's list, last op first), its tensor reads of memrefs are walk order
// (nested ops first, in order, then its own).
struct opsched_vfx_cache {
  struct Entry {
    bool known = true;      // getEffectsRecursively is not nullopt
    bool nested = false;    // the list goes on with the nested ops' lists
    bool fxStack = false;   // a non-allocating effect on the stack resource
    bool mayNotReturn = false, stackName = false;
    bool speculatable = false; // mlir::isSpeculatable
    uint32_t first = 0, count = 0;   // own (or whole) effects in `fx`
    uint32_t rfirst = 0, rcount = 0; // own tensor reads in `reads`
    uint64_t total = 0, rtotal = 0;  // with the nested ops'
  };
  llvm::DenseMap<Operation *, Entry> entries;
  llvm::DenseMap<const void *, Recursion> recursion; // by OperationName
  RootMemo memo;
  std::vector<Fx> fx, reads;
  uintptr_t stack = resourceId("AutomaticAllocationScope");
  uintptr_t memory = resourceId("<Default>");

  const Entry &get(Operation *op);

private:
  void addOwnReads(Operation *op, Entry &e);
  void addEffects(Operation *op, Entry &e, bool hasNested);
  void store(const SmallVectorImpl<MemoryEffects::EffectInstance> &list, Entry &e);
};

namespace {

template <typename F> void forNestedOps(Operation *op, F f) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        f(&nested);
}

template <typename F> void forNestedOpsReversed(Operation *op, F f) {
  for (Region &region : llvm::reverse(op->getRegions()))
    for (Block &block : llvm::reverse(region))
      for (Operation &nested : llvm::reverse(block))
        f(&nested);
}

} // namespace

void opsched_vfx_cache::store(const SmallVectorImpl<MemoryEffects::EffectInstance> &list,
                              Entry &e) {
  e.first = static_cast<uint32_t>(fx.size());
  for (const MemoryEffects::EffectInstance &x : list) {
    opsched_vfx_kind kind = kindOf(x);
    uintptr_t res = resourceId(x.getResource()->getName());
    if (res == stack && kind != OPSCHED_VFX_ALLOC)
      e.fxStack = true;
    fx.push_back(makeFx(res, x.getValue(), kind, memo));
  }
  e.count = static_cast<uint32_t>(fx.size() - e.first);
}

// A tensor that is a view of a memref (to_tensor) is read from that memref's
// memory by whoever reads the tensor.
void opsched_vfx_cache::addOwnReads(Operation *op, Entry &e) {
  e.rfirst = static_cast<uint32_t>(reads.size());
  for (Value v : op->getOperands()) {
    if (!isa<TensorType>(v.getType()))
      continue;
    if (isa<BaseMemRefType>(memo.rootOf(v).getType()))
      reads.push_back(makeFx(memory, v, OPSCHED_VFX_READ, memo));
  }
  e.rcount = static_cast<uint32_t>(reads.size() - e.rfirst);
  e.rtotal += e.rcount;
}

// What libMLIR's answer for an op whose two hypotheses differ says of its
// name: `size` is the answer's length (-1: nullopt), `own` the op's own
// effects (-1: no interface), `nested` the nested ops' (-1: some unknown).
static Recursion learn(int64_t size, int64_t own, int64_t nested) {
  int64_t recursive = nested < 0 ? -1 : own < 0 ? nested : own + nested;
  int64_t plain = own; /* not recursive: its own effects, or nullopt */
  if (size == plain)
    return Recursion::No;
  return size == recursive ? Recursion::Yes : Recursion::Direct;
}

// getEffectsRecursively(op), from the nested ops' entries when the op's
// name is known to recurse or not; libMLIR is asked directly for an op
// without nested ops, and for the first op of a name whose answer depends
// on it (which teaches the name).
void opsched_vfx_cache::addEffects(Operation *op, Entry &e, bool hasNested) {
  SmallVector<MemoryEffects::EffectInstance> own;
  auto iface = hasNested ? dyn_cast<MemoryEffectOpInterface>(op) : MemoryEffectOpInterface();
  bool nestedKnown = true;
  uint64_t nestedTotal = 0;
  bool nestedStack = false;
  if (hasNested)
    forNestedOps(op, [&](Operation *n) {
      const Entry &c = get(n);
      nestedKnown &= c.known;
      nestedTotal += c.total;
      nestedStack |= c.fxStack;
    });
  // The two hypotheses (recursive or not) give the same answer: no need to
  // know which holds.
  if (hasNested && iface)
    iface.getEffects(own);
  bool same = hasNested && (iface ? nestedKnown && nestedTotal == 0 : !nestedKnown);
  Recursion &r = recursion[op->getName().getAsOpaquePointer()];
  if (!hasNested || r == Recursion::Direct || (!same && r == Recursion::Unknown)) {
    auto all = getEffectsRecursively(op);
    e.known = all.has_value();
    if (all)
      store(*all, e);
    e.total = e.count;
    if (hasNested && !same && r == Recursion::Unknown)
      r = learn(all ? static_cast<int64_t>(all->size()) : -1,
                iface ? static_cast<int64_t>(own.size()) : -1,
                nestedKnown ? static_cast<int64_t>(nestedTotal) : -1);
    return;
  }
  bool recursive = same ? !iface : r == Recursion::Yes;
  if (iface)
    store(own, e);
  if (!recursive) {
    e.known = static_cast<bool>(iface);
    e.total = e.count;
    return;
  }
  e.known = nestedKnown;
  e.nested = nestedKnown;
  e.total = nestedKnown ? e.count + nestedTotal : 0;
  e.fxStack |= nestedKnown && nestedStack;
  if (!nestedKnown)
    e.count = 0;
}

const opsched_vfx_cache::Entry &opsched_vfx_cache::get(Operation *op) {
  auto it = entries.find(op);
  if (it != entries.end())
    return it->second;
  Entry e;
  bool hasNested = false, nestedSpeculatable = true;
  forNestedOps(op, [&](Operation *n) {
    hasNested = true;
    const Entry &c = get(n);
    e.mayNotReturn |= c.mayNotReturn;
    e.stackName |= c.stackName;
    e.rtotal += c.rtotal;
    nestedSpeculatable &= c.speculatable;
  });
  // isSpeculatable's recursion, from the nested ops' answers; libMLIR
  // answers every other case (a cast the TypeID trap hid included).
  auto cond = hasNested ? dyn_cast<ConditionallySpeculatable>(op) : ConditionallySpeculatable();
  if (cond && cond.getSpeculatability() == Speculation::RecursivelySpeculatable)
    e.speculatable = nestedSpeculatable;
  else
    e.speculatable = isSpeculatable(op);
  e.mayNotReturn |= nameIn(op, kMayNotReturn);
  e.stackName |= nameIn(op, kStackScope);
  addOwnReads(op, e);
  addEffects(op, e, hasNested);
  return entries.try_emplace(op, e).first->second;
}

namespace {

struct Sink {
  opsched_vfx *out;
  int64_t cap, n = 0;
  void add(const opsched_vfx &fx) {
    if (n < cap)
      out[n] = fx;
    n++;
  }
};

// The op's effects in getEffectsRecursively's order; allocations on the
// stack that outlive `top` set stack_alloc.
void emitEffects(opsched_vfx_cache &cache, Operation *op, Operation *top, Sink &sink,
                 opsched_vfacts *facts) {
  const opsched_vfx_cache::Entry &e = cache.get(op);
  for (uint32_t i = e.first; i < e.first + e.count; i++) {
    const Fx &f = cache.fx[i];
    if (f.fx.resource == cache.stack && f.fx.kind == OPSCHED_VFX_ALLOC &&
        (!f.value || !scopedInside(f.value, top)))
      facts->stack_alloc = 1;
    sink.add(f.fx);
  }
  if (e.nested)
    forNestedOpsReversed(op, [&](Operation *n) {
      if (cache.get(n).total > 0)
        emitEffects(cache, n, top, sink, facts);
    });
}

// The tensor reads of memrefs in walk order (post-order).
void emitReads(opsched_vfx_cache &cache, Operation *op, Sink &sink) {
  forNestedOps(op, [&](Operation *n) {
    if (cache.get(n).rtotal > 0)
      emitReads(cache, n, sink);
  });
  const opsched_vfx_cache::Entry &e = cache.get(op);
  for (uint32_t i = e.rfirst; i < e.rfirst + e.rcount; i++)
    sink.add(cache.reads[i].fx);
}

} // namespace

opsched_vfx_cache *opschedVerifyFactsCacheNew(void) {
  return new (std::nothrow) opsched_vfx_cache();
}

void opschedVerifyFactsCacheFree(opsched_vfx_cache *cache) { delete cache; }

int64_t opschedVerifyOpFacts(opsched_vfx_cache *cache, MlirOperation op, opsched_vfx *out,
                             int64_t cap, opsched_vfacts *facts) {
  Operation *top = unwrap(op);
  *facts = opsched_vfacts{0, 0, 0, 0, 0};
  Sink sink{out, cap};
  const opsched_vfx_cache::Entry &e = cache->get(top);
  if (e.known)
    emitEffects(*cache, top, top, sink, facts);
  facts->unknown = !e.known;
  facts->stack_scope = e.known && e.fxStack;
  facts->speculatable = e.speculatable ? 1 : 0;
  facts->may_not_return = e.mayNotReturn;
  facts->stack_scope |= e.stackName;
  emitReads(*cache, top, sink);
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
