! Polling counts as waiting, from Fortran (test/mpi/polling.sh): the modes
! recv, test and iprobe of polling.c through the `use mpi` binding. Rank 1
! sleeps D ms before each send; rank 0 receives with MPI_RECV, with
! MPI_IRECV and a loop of MPI_TEST, or with a loop of MPI_IPROBE and then
! MPI_RECV; each mode on its own tag. Each delay starts when rank 0 is
! ready (it sends rank 1 a word on tag 99 first), as in polling.c. Between two polls rank 0 naps 50 µs
! (usleep), as polling.c does.
!
!   polling_f D_MS ITER MODE...
program polling_f
    use mpi
    use iso_c_binding, only: c_int
    implicit none
    interface
        integer(c_int) function usleep(us) bind(C, name="usleep")
            import :: c_int
            integer(c_int), value :: us
        end function usleep
    end interface
    character(len=32) :: arg
    integer :: rank, ierr, d, iter, i, a, tag, req, rc
    integer :: st(MPI_STATUS_SIZE)
    logical :: flag
    double precision :: x, y, total

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call get_command_argument(1, arg)
    read (arg, *) d
    call get_command_argument(2, arg)
    read (arg, *) iter
    x = 1
    total = 0
    do a = 3, command_argument_count()
        call get_command_argument(a, arg)
        if (arg == 'recv') then
            tag = 20
        else if (arg == 'test') then
            tag = 21
        else if (arg == 'iprobe') then
            tag = 22
        else
            if (rank == 0) print '(a,a)', 'polling_f: unknown mode ', trim(arg)
            call MPI_ABORT(MPI_COMM_WORLD, 2, ierr)
        end if
        do i = 1, iter
            if (rank == 1) then
                call MPI_RECV(y, 1, MPI_DOUBLE_PRECISION, 0, 99, MPI_COMM_WORLD, st, ierr)
                rc = usleep(int(d * 1000, c_int))
                call MPI_SEND(x, 1, MPI_DOUBLE_PRECISION, 0, tag, MPI_COMM_WORLD, ierr)
            else if (rank == 0) then
                call MPI_SEND(x, 1, MPI_DOUBLE_PRECISION, 1, 99, MPI_COMM_WORLD, ierr)
                y = 0
                flag = .false.
                if (tag == 20) then
                    call MPI_RECV(y, 1, MPI_DOUBLE_PRECISION, 1, tag, MPI_COMM_WORLD, st, ierr)
                else if (tag == 21) then
                    call MPI_IRECV(y, 1, MPI_DOUBLE_PRECISION, 1, tag, MPI_COMM_WORLD, req, ierr)
                    call MPI_TEST(req, flag, st, ierr)
                    do while (.not. flag)
                        rc = usleep(50_c_int)
                        call MPI_TEST(req, flag, st, ierr)
                    end do
                else
                    call MPI_IPROBE(1, tag, MPI_COMM_WORLD, flag, st, ierr)
                    do while (.not. flag)
                        rc = usleep(50_c_int)
                        call MPI_IPROBE(1, tag, MPI_COMM_WORLD, flag, st, ierr)
                    end do
                    call MPI_RECV(y, 1, MPI_DOUBLE_PRECISION, 1, tag, MPI_COMM_WORLD, st, ierr)
                end if
                total = total + y
            end if
        end do
        call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    end do
    if (rank == 0) print '(a,i0,a,i0)', 'polling_f: iter=', iter, ' received=', nint(total)
    call MPI_FINALIZE(ierr)
end program polling_f
