# `cmake --install` and the .deb (CPack): binaries in PREFIX/bin, what they
# read at run time in PREFIX/share/stap (util/data_dir.h finds it relative
# to the binary), man pages in PREFIX/share/man.
include(GNUInstallDirs)

install(TARGETS stap stap-vm staprun RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET staprun32)
  install(TARGETS staprun32 RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(STAP_SHARE ${CMAKE_INSTALL_DATADIR}/stap)
install(DIRECTORY runtime/ DESTINATION ${STAP_SHARE}/runtime)
# The runtime compiles unwind/ into every module that takes user backtraces
# (build/kbuild.cpp looks for it beside the runtime directory).
file(GLOB STAP_UNWIND_SOURCES ${CMAKE_SOURCE_DIR}/unwind/*.c ${CMAKE_SOURCE_DIR}/unwind/*.h)
install(FILES ${STAP_UNWIND_SOURCES} DESTINATION ${STAP_SHARE}/unwind)
install(DIRECTORY tapsets/ DESTINATION ${STAP_SHARE}/tapset)
install(DIRECTORY scripts/vm/ DESTINATION ${STAP_SHARE}/vm USE_SOURCE_PERMISSIONS)

install(FILES docs/man/stap.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES docs/man/staprun.8 DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
install(FILES docs/man/stapprobes.3stap docs/man/stapfuncs.3stap
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
# `man error::pass2`: what each failing pass means and what to do.
file(GLOB STAP_ERROR_PAGES ${CMAKE_SOURCE_DIR}/docs/man/*.7stap)
install(FILES ${STAP_ERROR_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man7)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME stap)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "stap developers <stap@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "SystemTap-compatible tracing compiler for Linux")
set(CPACK_PACKAGE_DESCRIPTION "stap compiles SystemTap probe scripts into kernel modules and runs
them with staprun, locally or in qemu virtual machines.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Shared libraries (libdw, libelf, zlib, libstdc++) from dpkg-shlibdeps; the
# module build needs make, gcc and the target kernel's headers; pass 5 needs
# kmod here, or qemu for --remote=qemu://.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "make, gcc, kmod")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "linux-headers-amd64 | linux-headers-686")
# Both ship /usr/bin/stap and /usr/bin/staprun.
set(CPACK_DEBIAN_PACKAGE_CONFLICTS "systemtap, systemtap-runtime")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qemu-system-x86, busybox-static, cpio")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
