! MPI_PCONTROL from Fortran has no name: it must make no region, print no
! diagnostic, and leave the calls around it as they are
! (pcontrol.expect.py). MPICH's binding calls the C MPI_Pcontrol(level)
! without a name; Open MPI's calls PMPI_Pcontrol directly.
program pcontrol
  use mpi
  implicit none
  integer :: ierr, i
  call MPI_INIT(ierr)
  do i = 1, 3
    call MPI_PCONTROL(1)
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call MPI_PCONTROL(-1)
  end do
  call MPI_PCONTROL(0)
  call MPI_FINALIZE(ierr)
  print '(a)', 'done'
end program pcontrol
