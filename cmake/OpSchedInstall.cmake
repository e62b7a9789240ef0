# Packaging: the generated opsched/Version.h, the install rules and the
# OpSchedConfig.cmake package (find_package(OpSched CONFIG)). Included last
# from the top-level CMakeLists.txt, once every target exists.
#
# Installed layout (docs/api.md):
#   include/opsched/{graph,schedule,options,cost,memory,arena,frontier,Version}.h  core, C
#   include/opsched/report.h                                      reports (DOT, table, trace, HTML), C
#   include/opsched/attr_names.h                                  attribute names (data only)
#   include/opsched/Passes.h                                      C++ passes
#   include/opsched-c/*.h                                         C API
#   lib/libopsched_core.a            OpSched::core  (pure C, no MLIR)
#   lib/libopsched_report.a          OpSched::report (pure C, on OpSched::core)
#   lib/libopsched_capi.so           OpSched::capi  (+ MLIR C API), OpSched::cxx
#   lib/libopsched.so                OpSched::plugin (mlir-opt --load-pass-plugin)
#   bin/opsched-opt                  OpSched::opt
#   lib/cmake/OpSched/OpSchedConfig.cmake, OpSchedConfigVersion.cmake, targets
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# ---- Version.h ----------------------------------------------------------
if(OPSCHED_ENABLE_MLIR)
  set(OPSCHED_HAS_MLIR 1)
  set(OPSCHED_MLIR_VERSION_MAJOR ${LLVM_VERSION_MAJOR})
  set(OPSCHED_MLIR_VERSION_MINOR ${LLVM_VERSION_MINOR})
  set(OPSCHED_MLIR_VERSION_PATCH ${LLVM_VERSION_PATCH})
  set(OPSCHED_MLIR_VERSION "${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}.${LLVM_VERSION_PATCH}")
  # The SONAME of the libMLIR.so linked against, as its imported target says.
  set(OPSCHED_MLIR_SONAME "")
  get_target_property(_opsched_configs MLIR IMPORTED_CONFIGURATIONS)
  foreach(_config ${_opsched_configs})
    get_target_property(_soname MLIR IMPORTED_SONAME_${_config})
    if(_soname AND NOT OPSCHED_MLIR_SONAME)
      set(OPSCHED_MLIR_SONAME ${_soname})
    endif()
  endforeach()
  if(NOT OPSCHED_MLIR_SONAME)
    set(OPSCHED_MLIR_SONAME "libMLIR.so.${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
  endif()
else()
  set(OPSCHED_HAS_MLIR 0)
  set(OPSCHED_MLIR_VERSION_MAJOR 0)
  set(OPSCHED_MLIR_VERSION_MINOR 0)
  set(OPSCHED_MLIR_VERSION_PATCH 0)
  set(OPSCHED_MLIR_VERSION "")
  set(OPSCHED_MLIR_SONAME "")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/Version.h.in
               ${PROJECT_BINARY_DIR}/include/opsched/Version.h @ONLY)
target_include_directories(opsched_core PUBLIC $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>)

# ---- Install rules --------------------------------------------------------
set(OPSCHED_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/OpSched)

set_target_properties(opsched_core PROPERTIES EXPORT_NAME core)
set_target_properties(opsched_report PROPERTIES EXPORT_NAME report)
install(TARGETS opsched_core opsched_report EXPORT OpSchedCoreTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES
  ${PROJECT_SOURCE_DIR}/include/opsched/graph.h
  ${PROJECT_SOURCE_DIR}/include/opsched/schedule.h
  ${PROJECT_SOURCE_DIR}/include/opsched/options.h
  ${PROJECT_SOURCE_DIR}/include/opsched/cost.h
  ${PROJECT_SOURCE_DIR}/include/opsched/memory.h
  ${PROJECT_SOURCE_DIR}/include/opsched/arena.h
  ${PROJECT_SOURCE_DIR}/include/opsched/report.h
  ${PROJECT_SOURCE_DIR}/include/opsched/attr_names.h
  ${PROJECT_SOURCE_DIR}/include/opsched/frontier.h
  ${PROJECT_BINARY_DIR}/include/opsched/Version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opsched)
install(EXPORT OpSchedCoreTargets NAMESPACE OpSched::
  FILE OpSchedCoreTargets.cmake DESTINATION ${OPSCHED_INSTALL_CMAKEDIR})

if(OPSCHED_ENABLE_MLIR)
  # Installed binaries find libMLIR.so where they were linked against it.
  set_target_properties(opsched opsched-opt PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  set_target_properties(opsched_capi PROPERTIES EXPORT_NAME capi)
  set_target_properties(opsched PROPERTIES EXPORT_NAME plugin)
  set_target_properties(opsched-opt PROPERTIES EXPORT_NAME opt)
  install(TARGETS opsched_capi opsched opsched-opt EXPORT OpSchedMLIRTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/opsched/Passes.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opsched)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/opsched-c
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
  install(EXPORT OpSchedMLIRTargets NAMESPACE OpSched::
    FILE OpSchedMLIRTargets.cmake DESTINATION ${OPSCHED_INSTALL_CMAKEDIR})
  set(OPSCHED_CONFIG_MLIR_DIR ${MLIR_DIR})
else()
  set(OPSCHED_CONFIG_MLIR_DIR "")
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/OpSchedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/OpSchedConfig.cmake
  INSTALL_DESTINATION ${OPSCHED_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
# 0.x: a minor release may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/OpSchedConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/OpSchedConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/OpSchedConfigVersion.cmake
  DESTINATION ${OPSCHED_INSTALL_CMAKEDIR})
