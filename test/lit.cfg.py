# lit configuration for opsched (shaped after mlir/examples/standalone).
import os

import lit.formats

config.name = "opsched"
config.test_format = lit.formats.ShTest(not lit_config.params.get("no-execute"))
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = config.opsched_test_src
config.test_exec_root = config.opsched_test_obj

# Our tools first, then LLVM's (FileCheck, not, count).
config.environment["PATH"] = os.pathsep.join(
    [config.opsched_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
)
# The plugin's re-exec must see the user's environment, nothing of ours.
for var in ("LD_PRELOAD", "OPSCHED_PLUGIN_REEXEC", "OPSCHED_PLUGIN_SAVED_LD_PRELOAD",
            "GLIBC_TUNABLES", "OPSCHED_MALLOC_SAVED_TUNABLES"):
    config.environment.pop(var, None)

# glibc's malloc can take transparent huge pages (glibc 2.35 and later, THP
# not "never"): opsched-opt's second start on large inputs then happens
# (tools/opsched-opt/reexec.h).
def _thp_malloc():
    try:
        major, minor = os.confstr("CS_GNU_LIBC_VERSION").split()[1].split(".")[:2]
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            thp = "[never]" not in f.read()
        return thp and (int(major), int(minor)) >= (2, 35)
    except (AttributeError, IndexError, OSError, ValueError):
        return False
if _thp_malloc():
    config.available_features.add("thp-malloc")

config.substitutions.append(("%mlir_opt", config.mlir_opt))
config.substitutions.append(("%opsched_plugin", config.opsched_plugin))
config.substitutions.append(("%opsched_src", config.opsched_src_root))

# The shared corpus beside the project is optional: tests that read it
# REQUIRE: shared-corpus and are reported UNSUPPORTED when it is absent.
shared = os.path.normpath(os.path.join(config.opsched_src_root, "..", "shared", "corpus"))
if os.path.isdir(os.path.join(shared, "models")):
    config.available_features.add("shared-corpus")
    config.substitutions.append(("%shared_corpus", shared))

# Headless Chromium (Debian's chromium, installed by scripts/setup.sh) for the
# browser checks of HTML reports; without it those tests are UNSUPPORTED.
for chromium in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
    if os.access(chromium, os.X_OK):
        config.available_features.add("chromium")
        break
config.substitutions.append(("%python", "python3"))

# `lit --param sanitized=1` (scripts/sanitize.sh, an ASan+UBSan build): a
# sanitized plugin cannot be loaded into Debian's non-sanitized mlir-opt, so
# every test that loads %opsched_plugin is excluded, and so is Exec/ (the
# JIT-heavy execution checks, covered by the normal run).
if lit_config.params.get("sanitized"):
    config.available_features.add("sanitized")
    config.excludes.append("Exec")
    for _dir, _subdirs, _files in os.walk(config.opsched_test_src):
        for _f in _files:
            if _f.endswith((".mlir", ".test")):
                with open(os.path.join(_dir, _f), errors="replace") as _fh:
                    if "%opsched_plugin" in _fh.read():
                        config.excludes.append(_f)
