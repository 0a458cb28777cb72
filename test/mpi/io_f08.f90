! MPI-IO from Fortran (use mpi_f08): every rank opens one file on
! MPI_COMM_WORLD, writes its block at an explicit offset, reads it back
! (with a status, then through the individual pointer with
! MPI_STATUS_IGNORE), writes without blocking and waits, closes the file;
! rank 0 deletes it. The file is the program's path with ".dat" appended.
! The same calls as io_fortran.f90.
program io_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 8
  integer :: ierr, rank, nranks, cnt, i, failures
  type(MPI_File) :: fh
  type(MPI_Request) :: req
  type(MPI_Status) :: st
  integer(kind=MPI_OFFSET_KIND) :: off
  integer, asynchronous :: buf(n), got(n)
  character(len=4096) :: path

  failures = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(0, path)
  path = trim(path) // '.dat'
  buf = [(100 * rank + i, i = 1, n)]
  call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) failures = failures + 1
  off = int(rank, MPI_OFFSET_KIND) * n * 4
  call MPI_File_write_at(fh, off, buf, n, MPI_INTEGER, st, ierr)
  got = -1
  call MPI_File_read_at(fh, off, got, n, MPI_INTEGER, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  if (cnt /= n .or. any(got /= buf)) failures = failures + 1
  call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  got = -1
  call MPI_File_read(fh, got, n / 2, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (any(got(1:n / 2) /= buf(1:n / 2))) failures = failures + 1
  off = int(nranks + rank, MPI_OFFSET_KIND) * n * 4
  call MPI_File_iwrite_at(fh, off, buf, 2, MPI_INTEGER, req, ierr)
  call MPI_Wait(req, st, ierr)
  call MPI_File_close(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_File_delete(trim(path), MPI_INFO_NULL, ierr)
  if (rank == 0) print '(a, i0, a)', 'io_f08: ', nranks, ' ranks'
  if (failures /= 0) then
    print '(a, i0, a, i0)', 'io_f08: rank ', rank, ' failed checks: ', failures
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call MPI_Finalize(ierr)
end program io_f08
