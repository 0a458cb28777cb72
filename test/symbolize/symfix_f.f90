! Fixture shared library (Fortran): a module procedure (__symfix_mod_MOD_fsite)
! and an external subroutine (fplain_).
! Site markers: see symfix_main.c.
module symfix_mod
  use iso_c_binding
  implicit none
  interface
    subroutine symfix_probe(tag) bind(C, name="symfix_probe")
      import :: c_char
      character(kind=c_char), dimension(*), intent(in) :: tag
    end subroutine
  end interface
contains
  subroutine fsite()
    call symfix_probe("f_mod" // c_null_char) ! SITE:f_mod FUNC:symfix_mod::fsite
  end subroutine
end module

subroutine fplain()
  use symfix_mod
  call symfix_probe("f_plain" // c_null_char) ! SITE:f_plain FUNC:fplain
end subroutine
