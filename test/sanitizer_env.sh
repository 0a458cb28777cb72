# Sourced by the test scripts that run programs under the preload library.
# When the library was built with SANITIZE=1 it needs the AddressSanitizer
# runtime, which must come first among a process's libraries: the programs
# under test are not instrumented, so libasan is preloaded before it.
#
#   sanitizer_preload LIB    prints the LD_PRELOAD value that loads LIB
#                            (LIB itself, or "<libasan>:LIB")
#
# Sourcing it also sets the sanitizers' options (inert in processes without
# a sanitizer runtime): errors stop the program with a report; the signals the fault
# tests send keep their meaning (ASan does not take SIGSEGV, SIGBUS, ...);
# leaks are reported except those allocated inside the MPI libraries and
# the third-party runtimes the tests load (test/lsan.supp), never ours.
# Allocation stacks are unwound in full (the MPI libraries have no frame
# pointers), so that a suppression sees the MPI frame of a leak even when
# the library that allocated it was unloaded at MPI_Finalize.

sanitizer_preload() {
    local asan
    asan=$(ldd "$1" 2>/dev/null | awk '$1 ~ /^libasan\.so/ { print $3; exit }')
    if [ -n "$asan" ]; then
        printf '%s:%s\n' "$asan" "$1"
    else
        printf '%s\n' "$1"
    fi
}

_sanitizer_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0:allow_user_segv_handler=1:detect_odr_violation=0:fast_unwind_on_malloc=0"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$_sanitizer_dir/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"
