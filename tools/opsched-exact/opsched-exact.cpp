//===- opsched-exact.cpp - the exact makespan / peak frontier of small blocks
//
// opsched-exact MODEL.mlir [--streams N] [--tolerance PCT] [--nodes K]
//                          [--budgets R1,R2,...]
//
// For every function body block of at most 64 ops: the block is planned
// exactly as `op-schedule='streams=N'` plans it (lib/mlir's block plan: the
// same graph, costs, capacity and buffer model), and the exact search
// (include/opsched/exact_frontier.h) answers
//  - the minimum makespan with no memory limit,
//  - the minimum makespan within each budget R x the floor (the one-stream
//    min-memory peak, the pass's frontier floor),
//  - the minimum peak among schedules within PCT% (default 2) of the pass's
//    unconstrained best makespan (a bisection over bytes),
// beside the pass's own figures. Every schedule found is checked again
// through opsched_schedule_from_placement (a valid placement on N streams)
// and opsched_memory_peak_in_time.
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/CAPI/IR.h"

extern "C" {
#include "block_plan.h"
#include "opsched/exact_frontier.h"
#include "opsched/options.h"
}

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Args {
  const char *model = nullptr;
  int streams = 4;
  double tolerance = 2.0;
  int64_t nodes = 0;
  bool dump = false;
  int64_t limit = 0; // --limit: only the budgets, with this makespan limit
  std::vector<double> budgets = {1.00, 1.05, 1.10, 1.15, 1.20, 1.25};
};

// A stream per op (lowest free stream, ops by start, zero-duration ops
// first at an instant) and the core's placement check. Returns the peak in
// time of the valid schedule, -1 when the placement is invalid.
int64_t checkPlacement(const opsched_block_plan &p, int streams, const int64_t *start) {
  int32_t n = opsched_graph_num_nodes(p.graph);
  std::vector<int64_t> end(n);
  std::vector<int32_t> order(n), stream(n, 0);
  for (int32_t i = 0; i < n; i++) {
    end[i] = start[i] + opsched_graph_cost(p.graph, i);
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    if (start[a] != start[b])
      return start[a] < start[b];
    return (end[a] > start[a]) < (end[b] > start[b]);
  });
  std::vector<int64_t> free_at(streams, 0);
  for (int32_t v : order) {
    int s = 0;
    while (s < streams && free_at[s] > start[v])
      s++;
    if (s == streams)
      return -1;
    stream[v] = s;
    free_at[s] = end[v];
  }
  opsched_schedule *sched = nullptr;
  if (opsched_schedule_from_placement(p.graph, p.bufs.buffers, start, end.data(), stream.data(),
                                      streams, &sched) != OPSCHED_OK)
    return -1;
  int64_t peak = opsched_schedule_peak_memory(sched);
  opsched_schedule_destroy(sched);
  return peak;
}

const char *statusName(opsched_exact_status s) {
  switch (s) {
  case OPSCHED_EXACT_OPTIMAL:
    return "optimal";
  case OPSCHED_EXACT_INFEASIBLE:
    return "none (proven)";
  case OPSCHED_EXACT_STOPPED:
    return "stopped";
  default:
    return "unsupported";
  }
}

// One exact run; prints nothing. *valid: the placement check's peak.
opsched_exact_result solve(const opsched_block_plan &p, const Args &a, int64_t budget,
                           int64_t limit, int64_t *checked) {
  opsched_exact_options eo;
  opsched_exact_options_init(&eo);
  eo.streams = a.streams;
  eo.max_memory = budget;
  eo.makespan_limit = limit;
  eo.node_limit = a.nodes;
  opsched_exact_result r;
  if (opsched_exact_min_makespan(p.graph, p.bufs.buffers, &eo, &r) != OPSCHED_OK) {
    fprintf(stderr, "opsched-exact: the search failed\n");
    exit(1);
  }
  *checked = r.start ? checkPlacement(p, a.streams, r.start) : -1;
  if (r.start && *checked != r.peak) {
    fprintf(stderr, "opsched-exact: a schedule failed its check (peak %lld, checked %lld)\n",
            (long long)r.peak, (long long)*checked);
    exit(1);
  }
  return r;
}

// The block as the search sees it: ops (cost, longest path to the end) and
// buffers (bytes, allocator, users).
void dumpBlock(const opsched_block_plan &p) {
  int32_t n = opsched_graph_num_nodes(p.graph);
  std::vector<int64_t> rank(n);
  opsched_graph_upward_ranks(p.graph, rank.data());
  for (int32_t i = 0; i < n; i++) {
    MlirStringRef nm = mlirIdentifierStr(mlirOperationGetName(p.ops[i]));
    int32_t np;
    const int32_t *pr = opsched_graph_preds(p.graph, i, &np);
    printf("  op %2d %-28.*s cost %6lld rank %6lld preds", (int)i, (int)nm.length, nm.data,
           (long long)opsched_graph_cost(p.graph, i), (long long)rank[i]);
    for (int32_t k = 0; k < np; k++)
      printf(" %d", (int)pr[k]);
    printf("\n");
  }
  if (!p.bufs.buffers)
    return;
  int32_t nb = opsched_buffers_count(p.bufs.buffers);
  std::vector<std::vector<int32_t>> users(nb);
  for (int64_t u = 0; u < opsched_buffers_num_uses(p.bufs.buffers); u++) {
    int32_t b, node;
    if (opsched_buffers_use(p.bufs.buffers, u, &b, &node) == OPSCHED_OK)
      users[b].push_back(node);
  }
  for (int32_t b = 0; b < nb; b++) {
    printf("  buffer %2d %9lld B by op %2d%s users", (int)b,
           (long long)opsched_buffers_size(p.bufs.buffers, b),
           (int)opsched_buffers_allocating_node(p.bufs.buffers, b),
           opsched_buffers_live_until_end(p.bufs.buffers, b) ? " (to the end)" : "");
    for (int32_t u : users[b])
      printf(" %d", (int)u);
    printf("\n");
  }
}

void report(const opsched_block_plan &p, const char *name, const Args &a) {
  const opsched_plan_frontier *f = p.frontier;
  int64_t floor = f ? f->floor_peak : -1;
  int64_t uncon = p.unconstrained_makespan;
  int64_t chosenM = opsched_schedule_makespan(p.schedule);
  int64_t chosenP = opsched_schedule_peak_memory(p.schedule);
  printf("# %s: %d ops, %d streams; the pass: unconstrained makespan %lld, floor %lld, "
         "default %lld (%.4fx) at peak %lld (%.4fx the floor)\n",
         name, (int)opsched_graph_num_nodes(p.graph), a.streams, (long long)uncon,
         (long long)floor, (long long)chosenM, (double)chosenM / (double)uncon,
         (long long)chosenP, (double)chosenP / (double)floor);
  if (floor <= 0 || uncon <= 0) {
    printf("  (no frontier: one stream, no buffers or no floor)\n");
    return;
  }
  printf("%-28s %10s %8s %10s %8s %10s %s\n", "exact: budget", "makespan", "x_best", "peak",
         "x_floor", "nodes", "status");
  int64_t chk;
  opsched_exact_result r = solve(p, a, 0, 0, &chk);
  printf("%-28s %10lld %8.4f %10lld %8.4f %10lld %s\n", "none", (long long)r.makespan,
         (double)r.makespan / (double)uncon, (long long)r.peak,
         (double)r.peak / (double)floor, (long long)r.nodes, statusName(r.status));
  opsched_exact_result_release(&r);
  for (double b : a.budgets) {
    int64_t budget = (int64_t)std::floor((double)floor * b);
    r = solve(p, a, budget, a.limit, &chk);
    char label[64];
    snprintf(label, sizeof label, "%.2fx floor = %lld", b, (long long)budget);
    printf("%-28s %10lld %8.4f %10lld %8.4f %10lld %s\n", label, (long long)r.makespan,
           r.makespan > 0 ? (double)r.makespan / (double)uncon : -1.0, (long long)r.peak,
           r.peak > 0 ? (double)r.peak / (double)floor : -1.0, (long long)r.nodes,
           statusName(r.status));
    opsched_exact_result_release(&r);
  }
  if (a.limit > 0)
    return;
  // The lowest peak within the tolerance: bisection over the budget.
  int64_t limit = (int64_t)std::floor((double)uncon * (1.0 + a.tolerance / 100.0));
  int64_t lo = floor - 1, hi = chosenP; // lo: infeasible or below the floor; hi: feasible
  int64_t best_peak = -1, best_mk = -1, total_nodes = 0;
  bool stopped = false;
  r = solve(p, a, hi, limit, &chk);
  total_nodes += r.nodes;
  if (r.status != OPSCHED_EXACT_OPTIMAL) {
    printf("  the pass's default is not within %.1f%% per the exact search: %s\n", a.tolerance,
           statusName(r.status));
    opsched_exact_result_release(&r);
    return;
  }
  best_peak = r.peak;
  best_mk = r.makespan;
  hi = r.peak;
  opsched_exact_result_release(&r);
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    r = solve(p, a, mid, limit, &chk);
    total_nodes += r.nodes;
    if (r.status == OPSCHED_EXACT_OPTIMAL) {
      hi = r.peak;
      best_peak = r.peak;
      best_mk = r.makespan;
    } else {
      if (r.status == OPSCHED_EXACT_STOPPED)
        stopped = true;
      lo = mid;
    }
    opsched_exact_result_release(&r);
  }
  printf("lowest peak with makespan <= %lld (%.1f%% over %lld): %lld = %.4fx the floor "
         "(makespan %lld = %.4fx), %s; %lld nodes\n",
         (long long)limit, a.tolerance, (long long)uncon, (long long)best_peak,
         (double)best_peak / (double)floor, (long long)best_mk,
         (double)best_mk / (double)uncon,
         stopped ? "NOT proven (a search stopped)" : "proven minimal", (long long)total_nodes);
}

Args parseArgs(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; i++) {
    std::string s = argv[i];
    if (s == "--streams" && i + 1 < argc)
      a.streams = atoi(argv[++i]);
    else if (s == "--tolerance" && i + 1 < argc)
      a.tolerance = atof(argv[++i]);
    else if (s == "--dump")
      a.dump = true;
    else if (s == "--limit" && i + 1 < argc)
      a.limit = atoll(argv[++i]);
    else if (s == "--nodes" && i + 1 < argc)
      a.nodes = atoll(argv[++i]);
    else if (s == "--budgets" && i + 1 < argc) {
      a.budgets.clear();
      for (char *t = strtok(argv[++i], ","); t; t = strtok(nullptr, ","))
        a.budgets.push_back(atof(t));
    } else if (!a.model && s[0] != '-')
      a.model = argv[i];
    else {
      fprintf(stderr, "opsched-exact: unexpected argument '%s'\n", argv[i]);
      exit(2);
    }
  }
  if (!a.model || a.streams < 2) {
    fprintf(stderr, "usage: opsched-exact MODEL.mlir [--streams N>=2] [--tolerance PCT] "
                    "[--nodes K] [--budgets R1,R2,...]\n");
    exit(2);
  }
  return a;
}

} // namespace

int main(int argc, char **argv) {
  Args a = parseArgs(argc, argv);
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.disableMultithreading();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(a.model, &context);
  if (!module) {
    fprintf(stderr, "opsched-exact: cannot parse %s\n", a.model);
    return 1;
  }
  opsched_options o;
  opsched_options_init(&o);
  char err[256];
  if (opsched_options_set_streams(&o, a.streams, err, sizeof err)) {
    fprintf(stderr, "opsched-exact: %s\n", err);
    return 2;
  }
  int rc = 0;
  for (mlir::Operation &op : module->getBody()->getOperations()) {
    if (op.getNumRegions() == 0 || op.getRegion(0).empty())
      continue;
    mlir::Block &body = op.getRegion(0).front();
    opsched_block_plan p;
    memset(&p, 0, sizeof p);
    opsched_plan_result pr = opsched_block_plan_build(&p, wrap(&body), &o, OPSCHED_PLAN_SCHEDULE);
    std::string name = "block of ";
    if (auto sym = op.getAttrOfType<mlir::StringAttr>("sym_name"))
      name = "@" + sym.getValue().str();
    if (pr != OPSCHED_PLAN_OK || !p.graph || !p.schedule) {
      printf("# %s: not planned\n", name.c_str());
      rc |= pr == OPSCHED_PLAN_FAILED;
    } else if (opsched_graph_num_nodes(p.graph) > 64) {
      printf("# %s: %d ops (the exact search takes at most 64)\n", name.c_str(),
             (int)opsched_graph_num_nodes(p.graph));
    } else {
      if (a.dump)
        dumpBlock(p);
      report(p, name.c_str(), a);
    }
    opsched_block_plan_release(&p);
  }
  return rc;
}
