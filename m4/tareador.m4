# TAREADOR_REQUIRE_PKG(VARIABLE-PREFIX, PKG-CONFIG-MODULE, DEBIAN-PACKAGE)
# Like PKG_CHECK_MODULES, but a missing module stops configure with the package that provides it.
AC_DEFUN([TAREADOR_REQUIRE_PKG], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 was not found by pkg-config.
Install the Debian package '$3' (scripts/install-deps.sh installs every dependency).])])
])

# TAREADOR_REQUIRE_HEADER(HEADER, DEBIAN-PACKAGE)
# For header-only C++ libraries that ship no pkg-config file (Boost).
AC_DEFUN([TAREADOR_REQUIRE_HEADER], [
  AC_LANG_PUSH([C++])
  AC_CHECK_HEADER([$1], [],
    [AC_MSG_ERROR([$1 was not found.
Install the Debian package '$2' (scripts/install-deps.sh installs every dependency).])])
  AC_LANG_POP([C++])
])
