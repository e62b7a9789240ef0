//===- queries.cpp - MLIR queries the C API lacks, callable from C --------===//
//
// Kept small on purpose: each function answers one question the C code in
// lib/mlir needs and the MLIR C API cannot.
//
//===----------------------------------------------------------------------===//

#include "queries.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

// Resources by name, not by address: a resource is a singleton per shared
// object, so the plugin's copy and libMLIR's may differ.
static uintptr_t resourceKey(SideEffects::Resource *r) {
  StringRef name = r->getName();
  if (name == SideEffects::DefaultResource::get()->getName())
    return OPSCHED_RESOURCE_DEFAULT;
  if (name == SideEffects::AutomaticAllocationScopeResource::get()->getName())
    return OPSCHED_RESOURCE_AUTOMATIC_SCOPE;
  return reinterpret_cast<uintptr_t>(r);
}

int64_t opsched_mlir_op_effects(MlirOperation op, opsched_effect *out, int64_t cap) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(unwrap(op));
  if (!effects)
    return -1;
  // MapVector keeps first-seen order: deterministic output.
  llvm::MapVector<uintptr_t, bool> byResource;
  for (const MemoryEffects::EffectInstance &e : *effects) {
    uintptr_t key = resourceKey(e.getResource());
    if (isa<MemoryEffects::Allocate>(e.getEffect())) {
      // A stack allocation lives until the scope's stack is restored: it
      // "reads" the scope so stack save/restore (writers) order against it.
      if (key == OPSCHED_RESOURCE_AUTOMATIC_SCOPE)
        byResource[key] |= false;
      continue;
    }
    bool write = !isa<MemoryEffects::Read>(e.getEffect());
    byResource[key] |= write;
  }
  int64_t i = 0;
  for (auto &[resource, write] : byResource) {
    if (i < cap)
      out[i] = opsched_effect{resource, write ? 1 : 0};
    i++;
  }
  return i;
}

int64_t opsched_mlir_op_value_effects(MlirOperation op, opsched_value_effect *out,
                                      int64_t cap) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(unwrap(op));
  if (!effects)
    return -1;
  // MapVector keeps first-seen order: deterministic output.
  llvm::MapVector<std::pair<uintptr_t, void *>, bool> byKey;
  for (const MemoryEffects::EffectInstance &e : *effects) {
    uintptr_t key = resourceKey(e.getResource());
    if (isa<MemoryEffects::Allocate>(e.getEffect())) {
      // See opsched_mlir_op_effects: a stack allocation reads the scope.
      if (key == OPSCHED_RESOURCE_AUTOMATIC_SCOPE)
        byKey[{key, nullptr}] |= false;
      continue;
    }
    void *value = e.getValue() ? e.getValue().getAsOpaquePointer() : nullptr;
    byKey[{key, value}] |= !isa<MemoryEffects::Read>(e.getEffect());
  }
  int64_t i = 0;
  for (auto &[key, write] : byKey) {
    if (i < cap)
      out[i] = opsched_value_effect{key.first, MlirValue{key.second}, write ? 1 : 0};
    i++;
  }
  return i;
}

int opsched_mlir_op_name_traits(MlirOperation op) {
  Operation *o = unwrap(op);
  int t = 0;
  if (o->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    t |= OPSCHED_OP_RECURSIVE_EFFECTS;
  if (isa<ConditionallySpeculatable>(o))
    t |= OPSCHED_OP_CONDITIONALLY_SPECULATABLE;
  if (o->hasTrait<OpTrait::AlwaysSpeculatableImplTrait>())
    t |= OPSCHED_OP_ALWAYS_SPECULATABLE;
  if (isa<DestinationStyleOpInterface>(o))
    t |= OPSCHED_OP_DESTINATION_STYLE;
  return t;
}

int opsched_mlir_op_speculatability(MlirOperation op) {
  auto cond = dyn_cast<ConditionallySpeculatable>(unwrap(op));
  if (!cond)
    return 0;
  Speculation::Speculatability s = cond.getSpeculatability();
  if (s == Speculation::Speculatable)
    return OPSCHED_OP_SPECULATABLE;
  if (s == Speculation::RecursivelySpeculatable)
    return OPSCHED_OP_RECURSIVELY_SPECULATABLE;
  return 0;
}

int64_t opsched_mlir_op_own_effects(MlirOperation op, opsched_value_effect *out, int64_t cap) {
  Operation *o = unwrap(op);
  auto iface = dyn_cast<MemoryEffectOpInterface>(o);
  if (!iface)
    return -1;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  int64_t i = 0;
  for (const MemoryEffects::EffectInstance &e : effects) {
    uintptr_t key = resourceKey(e.getResource());
    opsched_value_effect fx;
    if (isa<MemoryEffects::Allocate>(e.getEffect())) {
      // As opsched_mlir_op_value_effects: a stack allocation reads the scope.
      if (key != OPSCHED_RESOURCE_AUTOMATIC_SCOPE)
        continue;
      fx = opsched_value_effect{key, MlirValue{nullptr}, 0};
    } else {
      void *value = e.getValue() ? e.getValue().getAsOpaquePointer() : nullptr;
      fx = opsched_value_effect{key, MlirValue{value}, isa<MemoryEffects::Read>(e.getEffect()) ? 0 : 1};
    }
    if (i < cap)
      out[i] = fx;
    i++;
  }
  return i;
}

intptr_t opsched_mlir_type_shape(MlirType type, const int64_t **dims, MlirType *element) {
  auto shaped = dyn_cast<ShapedType>(unwrap(type));
  *dims = nullptr;
  if (!shaped)
    return -2;
  *element = wrap(shaped.getElementType());
  if (!shaped.hasRank())
    return -1;
  ArrayRef<int64_t> shape = shaped.getShape();
  *dims = shape.data();
  return static_cast<intptr_t>(shape.size());
}

int64_t opsched_mlir_float_width(MlirType type) {
  auto f = dyn_cast<FloatType>(unwrap(type));
  return f ? static_cast<int64_t>(f.getWidth()) : 0;
}

intptr_t opsched_mlir_view_source(MlirOperation op) {
  Operation *o = unwrap(op);
  Value source;
  if (auto view = dyn_cast<ViewLikeOpInterface>(o))
    source = view.getViewSource();
  else if (o->getName().getStringRef() == "memref.transpose" && o->getNumOperands() == 1)
    source = o->getOperand(0); // a view, but not a ViewLikeOpInterface
  for (OpOperand &operand : o->getOpOperands())
    if (source && operand.get() == source)
      return static_cast<intptr_t>(operand.getOperandNumber());
  return -1;
}

// Effects through getEffectsRecursively: libMLIR does the interface casts.
int opsched_mlir_value_is_allocation(MlirValue v) {
  Value value = unwrap(v);
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0)
    return 0;
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(def);
  return effects && llvm::any_of(*effects, [&](const MemoryEffects::EffectInstance &e) {
           return isa<MemoryEffects::Allocate>(e.getEffect()) && e.getValue() == value;
         });
}

// A region op passing a buffer into its body (a loop's iter_args) is no
// accessor: the body's block argument is another name for it.
static bool forwardsBuffers(Operation *o) {
  for (Region &region : o->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (isa<BaseMemRefType>(arg.getType()))
          return true;
  return false;
}

int opsched_mlir_op_accesses_value(MlirOperation op, MlirValue v) {
  Operation *o = unwrap(op);
  Value value = unwrap(v);
  // An op returning a buffer or a tensor (to_tensor) might return this one,
  // or a value backed by it: not an accessor.
  for (Value r : o->getResults())
    if (isa<BaseMemRefType, TensorType>(r.getType()))
      return 0;
  if (forwardsBuffers(o))
    return 0;
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(o);
  return effects && llvm::any_of(*effects, [&](const MemoryEffects::EffectInstance &e) {
           return !isa<MemoryEffects::Allocate>(e.getEffect()) && e.getValue() == value;
         });
}

int64_t opsched_mlir_op_tied_operand(MlirOperation op, int64_t resultIndex) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(unwrap(op));
  if (!dps || resultIndex < 0 ||
      resultIndex >= static_cast<int64_t>(unwrap(op)->getNumResults()))
    return -1;
  OpOperand *tied = dps.getTiedOpOperand(unwrap(op)->getOpResult(resultIndex));
  return tied ? static_cast<int64_t>(tied->getOperandNumber()) : -1;
}

int64_t opsched_mlir_op_dps_inits(MlirOperation op, int64_t *first) {
  *first = 0;
  auto dps = dyn_cast<DestinationStyleOpInterface>(unwrap(op));
  if (!dps)
    return -1;
  MutableOperandRange inits = dps.getDpsInitsMutable();
  if (inits.empty())
    return 0;
  *first = static_cast<int64_t>(inits.begin()->getOperandNumber());
  return static_cast<int64_t>(inits.size());
}

const void *opsched_mlir_op_attr_dict(MlirOperation op) {
  return unwrap(op)->getRawDictionaryAttrs().getAsOpaquePointer();
}

int opsched_mlir_op_same_properties(MlirOperation a, MlirOperation b) {
  Operation *x = unwrap(a), *y = unwrap(b);
  if (x->getName() != y->getName())
    return 0;
  if (!x->getPropertiesStorageSize())
    return 1;
  return x->getName().compareOpProperties(x->getPropertiesStorage(), y->getPropertiesStorage())
             ? 1
             : 0;
}

// The names of `set` from `from` on, merged with the old attributes from
// `it` on (both sorted): each name's text is read once, and equal names
// (one StringAttr each) need no compare.
static void mergeSorted(SmallVectorImpl<NamedAttribute> &merged, const NamedAttribute *it,
                        const NamedAttribute *end, const MlirNamedAttribute *set,
                        intptr_t nset, const MlirIdentifier *remove, intptr_t nremove) {
  intptr_t s = 0, r = 0;
  StringAttr setName = nset ? unwrap(set[0].name) : StringAttr();
  StringRef setText = nset ? setName.getValue() : StringRef();
  while (it != end) {
    StringAttr oldName = it->getName();
    StringRef oldText = oldName.getValue();
    // Ours that sort before this old one, then this one replaced or kept.
    int cmp = -1;
    while (s < nset && (cmp = setName == oldName ? 0 : setText.compare(oldText)) < 0) {
      merged.emplace_back(setName, unwrap(set[s].attribute));
      if (++s < nset) {
        setName = unwrap(set[s].name);
        setText = setName.getValue();
      }
    }
    if (s < nset && cmp == 0) {
      merged.emplace_back(setName, unwrap(set[s].attribute));
      if (++s < nset) {
        setName = unwrap(set[s].name);
        setText = setName.getValue();
      }
    } else {
      while (r < nremove && unwrap(remove[r]) != oldName &&
             unwrap(remove[r]).getValue().compare(oldText) < 0)
        r++;
      if (r == nremove || unwrap(remove[r]) != oldName)
        merged.push_back(*it);
    }
    ++it;
  }
  for (; s < nset; s++)
    merged.emplace_back(unwrap(set[s].name), unwrap(set[s].attribute));
}

void opsched_mlir_update_discardable_attrs(MlirContext ctx, MlirOperation op,
                                       const MlirNamedAttribute *set, intptr_t nset,
                                       const MlirIdentifier *remove, intptr_t nremove) {
  Operation *o = unwrap(op);
  DictionaryAttr old = o->getDiscardableAttrDictionary();
  // Merge the sorted old attributes with the sorted changes: the result is
  // sorted and unique, what getWithSorted takes (no sort, no NamedAttrList).
  SmallVector<NamedAttribute, 24> merged;
  ArrayRef<NamedAttribute> oldAttrs = old.getValue();
  merged.reserve(oldAttrs.size() + static_cast<size_t>(nset));
  if (oldAttrs.empty()) // the first run: only ours, nothing to remove
    for (intptr_t s = 0; s < nset; s++)
      merged.emplace_back(unwrap(set[s].name), unwrap(set[s].attribute));
  else
    mergeSorted(merged, oldAttrs.begin(), oldAttrs.end(), set, nset, remove, nremove);
  o->setDiscardableAttrs(DictionaryAttr::getWithSorted(unwrap(ctx), merged));
}

void opsched_mlir_emit(MlirLocation loc, opsched_severity severity,
                     const char *message) {
  Location l = unwrap(loc);
  switch (severity) {
  case OPSCHED_SEVERITY_ERROR:
    emitError(l) << message;
    break;
  case OPSCHED_SEVERITY_WARNING:
    emitWarning(l) << message;
    break;
  case OPSCHED_SEVERITY_REMARK:
    emitRemark(l) << message;
    break;
  }
}

int opsched_mlir_op_is_speculatable(MlirOperation op) {
  Operation *o = unwrap(op);
  if (isSpeculatable(o))
    return 1;
  // An allocation cannot trap (a failed one shows at a later access):
  // treat ops whose only effects are allocations as speculatable.
  if (o->getNumRegions() != 0)
    return 0;
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(o);
  if (!effects || effects->empty())
    return 0;
  return llvm::all_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

// A region op that always ends: speculatable, or not speculatable only
// because of what its body does (RecursivelySpeculatable: the walk checks
// the body), or a destination-passing op (linalg), whose loops are bounded
// by its operands' shapes and which MLIR calls not speculatable merely for
// working on buffers.
static bool regionOpEnds(Operation *o) {
  if (isSpeculatable(o) || isa<DestinationStyleOpInterface>(o))
    return true;
  auto cond = dyn_cast<ConditionallySpeculatable>(o);
  return cond && cond.getSpeculatability() == Speculation::RecursivelySpeculatable;
}

int opsched_mlir_op_may_not_return(MlirOperation op) {
  Operation *o = unwrap(op);
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(o);
  if (!effects)
    return 1;
  for (const MemoryEffects::EffectInstance &e : *effects) {
    if (isa<MemoryEffects::Read>(e.getEffect()) || isa<MemoryEffects::Allocate>(e.getEffect()))
      continue;
    // Printing, asserting (no value) and other resources are observable; a
    // buffer's contents are seen only by a later read.
    if (!e.getValue() || resourceKey(e.getResource()) != OPSCHED_RESOURCE_DEFAULT)
      return 1;
  }
  // A region op MLIR cannot prove to end (a while, a for whose step may be
  // zero) may loop forever, at any depth.
  WalkResult r = o->walk([](Operation *nested) {
    return nested->getNumRegions() != 0 && !regionOpEnds(nested) ? WalkResult::interrupt()
                                                                : WalkResult::advance();
  });
  return r.wasInterrupted() ? 1 : 0;
}

void opsched_mlir_op_discardable_pair(MlirOperation op, MlirStringRef a, MlirStringRef b,
                                      MlirAttribute *va, MlirAttribute *vb) {
  Operation *o = unwrap(op);
  DictionaryAttr d = o->getRawDictionaryAttrs();
  Attribute x, y;
  if (!d.empty()) {
    StringRef na(a.data, a.length), nb(b.data, b.length);
    for (const NamedAttribute &attr : d.getValue()) { // names are unique
      StringRef name = attr.getName().getValue();
      if (name == na)
        x = attr.getValue();
      else if (name == nb)
        y = attr.getValue();
    }
    // As the C API's callers see it: nothing when the op has no
    // discardable attribute (the dictionary then holds inherent ones only).
    if ((x || y) && !o->getPropertiesStorage() && o->getDiscardableAttrs().empty())
      x = y = Attribute();
  }
  *va = wrap(x);
  *vb = wrap(y);
}
